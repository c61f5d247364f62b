package dev.cairn.engine.launch;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import tools.jackson.databind.JsonNode;

import dev.cairn.engine.process.JobOptions;
import dev.cairn.storage.errors.InvalidInputException;

/**
 * A calculation job's options in JSON, under the names {@link JobOptions#toAttributes()}
 * stores them with (AiiDA's {@code metadata.options}). Each option is read and applied on
 * its own, so every unknown, ill-typed or refused one is named, not only the first.
 */
final class JobOptionsJson {

    /** The JSON type of an option, and how it is read. */
    private enum Kind {
        COUNT,
        LIMIT,
        TEXT,
        FLAG,
        TEXT_MAP,
        TEXT_LIST;

        Map<String, Object> schema() {
            Map<String, Object> s = new LinkedHashMap<>();
            switch (this) {
                case COUNT -> {
                    s.put("type", "integer");
                    s.put("minimum", 1);
                    s.put("maximum", Integer.MAX_VALUE);
                }
                case LIMIT -> {
                    s.put("type", "integer");
                    s.put("minimum", 1);
                    s.put("maximum", Long.MAX_VALUE);
                }
                case TEXT -> s.put("type", "string");
                case FLAG -> s.put("type", "boolean");
                case TEXT_MAP -> {
                    s.put("type", "object");
                    s.put("additionalProperties", Map.of("type", "string"));
                }
                case TEXT_LIST -> {
                    s.put("type", "array");
                    s.put("items", Map.of("type", "string"));
                }
            }
            return s;
        }

        /** The option's value, or null after adding what is wrong with it. */
        Object read(JsonNode json, String path, List<String> problems) {
            String where = at(path);
            switch (this) {
                case COUNT, LIMIT -> {
                    Long n;
                    try {
                        n = JsonValues.integer(json);
                    } catch (InvalidInputException e) {
                        problems.add(where + ": " + e.getMessage());
                        return null;
                    }
                    if (n == null) {
                        problems.add(where + ": expected an integer, got " + JsonValues.describe(json));
                        return null;
                    }
                    if (this == COUNT && n != n.intValue()) {
                        problems.add(where + ": " + n + " does not fit in 32 bits");
                        return null;
                    }
                    return this == COUNT ? (Object) n.intValue() : n;
                }
                case TEXT -> {
                    return text(json, where, problems);
                }
                case FLAG -> {
                    if (!json.isBoolean()) {
                        problems.add(where + ": expected a boolean, got " + JsonValues.describe(json));
                        return null;
                    }
                    return json.booleanValue();
                }
                case TEXT_MAP -> {
                    if (!json.isObject()) {
                        problems.add(where + ": expected an object of strings, got " + JsonValues.describe(json));
                        return null;
                    }
                    Map<String, String> map = new LinkedHashMap<>();
                    int before = problems.size();
                    json.properties().forEach(e -> {
                        String s = text(e.getValue(), at(path + "." + e.getKey()), problems);
                        map.put(e.getKey(), s);
                    });
                    return problems.size() == before ? map : null;
                }
                case TEXT_LIST -> {
                    if (!json.isArray()) {
                        problems.add(where + ": expected an array of strings, got " + JsonValues.describe(json));
                        return null;
                    }
                    List<String> list = new ArrayList<>();
                    int before = problems.size();
                    for (int i = 0; i < json.size(); i++) {
                        list.add(text(json.get(i), at(path + "[" + i + "]"), problems));
                    }
                    return problems.size() == before ? list : null;
                }
            }
            throw new IllegalStateException("no reader for " + this);
        }

        private static String text(JsonNode json, String where, List<String> problems) {
            if (!json.isString()) {
                problems.add(where + ": expected a string, got " + JsonValues.describe(json));
                return null;
            }
            return json.stringValue();
        }
    }

    /** One option: its name, kind, meaning, and how it changes the options. */
    private record Option(String name, Kind kind, String help, BiFunction<JobOptions, Object, JobOptions> apply) {}

    private static final List<Option> RESOURCES = List.of(
            new Option(
                    "num_machines",
                    Kind.COUNT,
                    "machines to run on (default 1)",
                    (o, v) -> o.withResources((Integer) v, o.mpiprocsPerMachine(), o.coresPerMpiproc())),
            new Option(
                    "num_mpiprocs_per_machine",
                    Kind.COUNT,
                    "MPI processes on each machine (default: the computer's default_mpiprocs_per_machine, else 1)",
                    (o, v) -> o.withResources(o.machines(), (Integer) v, o.coresPerMpiproc())),
            new Option(
                    "num_cores_per_mpiproc",
                    Kind.COUNT,
                    "CPUs (threads) of each process (default 1)",
                    (o, v) -> o.withResources(o.machines(), o.mpiprocsPerMachine(), (Integer) v)));

    private static final List<Option> OPTIONS = List.of(
            new Option(
                    "max_wallclock_seconds",
                    Kind.LIMIT,
                    "wall-clock limit in seconds (default: the queue's)",
                    (o, v) -> o.withLimits((Long) v, o.batch().maxMemoryKb())),
            new Option(
                    "max_memory_kb",
                    Kind.LIMIT,
                    "memory per machine in kB (default: the queue's)",
                    (o, v) -> o.withLimits(o.batch().maxWallclockSeconds(), (Long) v)),
            new Option(
                    "queue_name",
                    Kind.TEXT,
                    "SLURM partition or PBS queue",
                    (o, v) -> o.withQueue(
                            (String) v, o.batch().account(), o.batch().qos())),
            new Option(
                    "account",
                    Kind.TEXT,
                    "account charged",
                    (o, v) ->
                            o.withQueue(o.batch().queue(), (String) v, o.batch().qos())),
            new Option(
                    "qos",
                    Kind.TEXT,
                    "quality of service",
                    (o, v) -> o.withQueue(o.batch().queue(), o.batch().account(), (String) v)),
            new Option(
                    "custom_scheduler_commands",
                    Kind.TEXT,
                    "lines put after the generated scheduler directives",
                    (o, v) -> o.withCustomSchedulerCommands((String) v)),
            new Option(
                    "prepend_text",
                    Kind.TEXT,
                    "shell text run before the code",
                    (o, v) -> o.withText((String) v, o.appendText())),
            new Option(
                    "append_text",
                    Kind.TEXT,
                    "shell text run after the code",
                    (o, v) -> o.withText(o.prependText(), (String) v)),
            new Option(
                    "withmpi",
                    Kind.FLAG,
                    "run the code under the computer's MPI launcher",
                    (o, v) -> o.withMpi((Boolean) v)),
            new Option(
                    "environment_variables",
                    Kind.TEXT_MAP,
                    "variables exported in the script, with literal values",
                    (o, v) -> o.withEnvironment(stringMap(v), o.batch().importSysEnvironment())),
            new Option(
                    "import_sys_environment",
                    Kind.FLAG,
                    "start the job with the submitting user's environment (default true)",
                    (o, v) -> o.withEnvironment(o.batch().environment(), (Boolean) v)),
            new Option(
                    "additional_retrieve_list",
                    Kind.TEXT_LIST,
                    "files or globs brought back besides those the job lists",
                    (o, v) -> o.withAdditionalRetrieveList(stringList(v))));

    /** The metadata key of the options. */
    static final String PATH = "options";

    private JobOptionsJson() {}

    /**
     * The options {@code json} (the value of metadata {@code options}) gives over the defaults;
     * every problem goes into {@code problems}, named by its path.
     */
    static JobOptions decode(JsonNode json, List<String> problems) {
        String where = at(PATH);
        if (!json.isObject()) {
            problems.add(where + ": expected an object of job options, got " + JsonValues.describe(json));
            return JobOptions.defaults();
        }
        JobOptions options = JobOptions.defaults();
        for (Map.Entry<String, JsonNode> e : json.properties()) {
            String path = PATH + "." + e.getKey();
            if (e.getKey().equals("resources")) {
                if (!e.getValue().isObject()) {
                    problems.add(
                            at(path) + ": expected an object of resources, got " + JsonValues.describe(e.getValue()));
                    continue;
                }
                for (Map.Entry<String, JsonNode> r : e.getValue().properties()) {
                    options = apply(options, RESOURCES, "resource", path + "." + r.getKey(), r, problems);
                }
            } else {
                options = apply(options, OPTIONS, "option", path, e, problems);
            }
        }
        return options;
    }

    private static JobOptions apply(
            JobOptions options,
            List<Option> known,
            String what,
            String path,
            Map.Entry<String, JsonNode> given,
            List<String> problems) {
        Option option = known.stream()
                .filter(o -> o.name().equals(given.getKey()))
                .findFirst()
                .orElse(null);
        if (option == null) {
            List<String> names =
                    new ArrayList<>(known.stream().map(Option::name).toList());
            if (known == OPTIONS) {
                names.addFirst("resources");
            }
            boolean resource = known == OPTIONS
                    && RESOURCES.stream().anyMatch(r -> r.name().equals(given.getKey()));
            problems.add(
                    resource
                            ? at(path) + " is a resource: give it in " + PATH + ".resources." + given.getKey()
                                    + " (resources are "
                                    + RESOURCES.stream().map(Option::name).toList() + ")"
                            : at(path) + " is not " + JsonValues.article(what) + "; valid " + what + "s are " + names);
            return options;
        }
        if (given.getValue().isNull()) {
            problems.add(at(path) + " is null; leave the " + what + " out for its default");
            return options;
        }
        Object value = option.kind().read(given.getValue(), path, problems);
        if (value == null) {
            return options;
        }
        try {
            return option.apply().apply(options, value);
        } catch (InvalidInputException e) {
            problems.add(at(path) + ": " + e.getMessage());
            return options;
        }
    }

    /** The options as JSON Schema: an object of exactly the names above. */
    static Map<String, Object> schema() {
        Map<String, Object> resources = object(RESOURCES);
        resources.put("description", "what the job asks the batch system for");
        Map<String, Object> schema = object(OPTIONS);
        @SuppressWarnings("unchecked")
        Map<String, Object> properties = (Map<String, Object>) schema.get("properties");
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("resources", resources);
        all.putAll(properties);
        schema.put("properties", all);
        schema.put("description", "how a calculation job runs, under the names its node's attributes have");
        return schema;
    }

    private static Map<String, Object> object(List<Option> options) {
        Map<String, Object> properties = new LinkedHashMap<>();
        for (Option o : options) {
            Map<String, Object> s = o.kind().schema();
            s.put("description", o.help());
            properties.put(o.name(), s);
        }
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("additionalProperties", false);
        return schema;
    }

    /** Where a problem is: {@code metadata 'options.resources.num_machines'}. */
    private static String at(String path) {
        return "metadata '" + path + "'";
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> stringMap(Object value) {
        return (Map<String, String>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<String> stringList(Object value) {
        return (List<String>) value;
    }
}
