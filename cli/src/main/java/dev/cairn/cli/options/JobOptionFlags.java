package dev.cairn.cli.options;

import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.JsonTrees;

/**
 * A calculation job's options from the command line ({@code --option max_wallclock_seconds=3600}), AiiDA's
 * {@code metadata.options}. A value is typed as the process type's metadata schema types the option, so
 * that {@code account=12345} stays text and {@code num_machines=2} is a number; a resource needs no
 * {@code resources.} in front. A name the schema lacks is refused here, with the names it has, where the
 * server's message would list {@code resources} and not what is in it.
 */
public final class JobOptionFlags {

    @Option(
            names = "--option",
            paramLabel = "NAME=VALUE",
            description = {
                "A job option (repeat for more), as AiiDA's metadata.options names them: num_machines=2,"
                        + " num_mpiprocs_per_machine=4, max_wallclock_seconds=3600, queue_name=debug, account=…,"
                        + " withmpi=true, environment_variables.OMP_NUM_THREADS=4, prepend_text='module load x'."
                        + " `cairn plugin list ENTRY_POINT` lists them."
            })
    List<String> options = new ArrayList<>();

    /** An option as {@code cairn plugin list ENTRY_POINT} lists it: its name for --option, type and help. */
    public record Listed(String name, String type, String help) {}

    /** The options {@code schema} (the metadata schema's {@code options}) takes, resources first, unprefixed. */
    public static List<Listed> listed(JsonNode schema) {
        List<Listed> all = new ArrayList<>();
        for (var resource :
                schema.path("properties").path("resources").path("properties").properties()) {
            all.add(listed(resource.getKey(), resource.getValue()));
        }
        for (var option : schema.path("properties").properties()) {
            if (!option.getKey().equals("resources")) {
                all.add(listed(option.getKey(), option.getValue()));
            }
        }
        return all;
    }

    private static Listed listed(String name, JsonNode schema) {
        return new Listed(
                name,
                schema.path("type").asString(""),
                schema.path("description").asString(""));
    }

    /** The JSON Schema of the job options in a process type as the server gives it; missing for no calculation job. */
    public static JsonNode schemaOf(JsonNode processType) {
        return processType.path("metadata_schema").path("properties").path("options");
    }

    /** Whether any option was given. */
    public boolean given() {
        return !options.isEmpty();
    }

    /**
     * Puts the options into {@code metadata.options} of {@code launch}, each typed by the metadata schema
     * of {@code entryPoint} as the server gives it; nothing is fetched when no option was given.
     */
    public void putInto(ObjectNode launch, CairnClient client, String entryPoint) {
        if (options.isEmpty()) {
            return;
        }
        JsonNode type = client.get("/api/v1/process-types/" + CairnClient.segment(entryPoint));
        JsonNode schema = schemaOf(type);
        if (schema.isMissingNode()) {
            throw CliException.usage("--option: " + entryPoint + " is a "
                    + type.path("kind").asString("process") + ", and only calculation jobs take job options");
        }
        ObjectNode metadata =
                launch.has("metadata") ? (ObjectNode) launch.get("metadata") : launch.putObject("metadata");
        metadata.set("options", toJson(schema, entryPoint));
    }

    /** The options as JSON, typed by {@code schema}, the JSON Schema of the job options of {@code entryPoint}. */
    ObjectNode toJson(JsonNode schema, String entryPoint) {
        ObjectNode all = JsonTrees.object();
        for (String option : options) {
            int eq = option.indexOf('=');
            if (eq <= 0) {
                throw CliException.usage("--option '" + option + "' is not NAME=VALUE (e.g. --option num_machines=2)");
            }
            List<String> path = path(option.substring(0, eq).strip(), schema, option, entryPoint);
            JsonNode valueSchema = at(schema, path);
            put(all, path, typed(option.substring(eq + 1), valueSchema, option));
        }
        return all;
    }

    /** The option's path in the options: a resource's name gets {@code resources} in front. */
    private static List<String> path(String name, JsonNode schema, String option, String entryPoint) {
        List<String> path = List.of(name.split("\\.", -1));
        if (path.stream().anyMatch(String::isEmpty)) {
            throw CliException.usage("--option '" + option + "': '" + name + "' is no option name");
        }
        JsonNode properties = schema.path("properties");
        JsonNode resources = properties.path("resources").path("properties");
        if (properties.has(path.getFirst())) {
            return path;
        }
        if (resources.has(path.getFirst())) {
            List<String> inResources = new ArrayList<>(path);
            inResources.addFirst("resources");
            return inResources;
        }
        throw CliException.usage("--option " + option + ": " + entryPoint + " has no job option '" + path.getFirst()
                + "'; it has "
                + String.join(", ", listed(schema).stream().map(Listed::name).toList()));
    }

    /** The schema of the value at {@code path}, or a missing node where the schema does not say. */
    private static JsonNode at(JsonNode schema, List<String> path) {
        JsonNode at = schema;
        for (String key : path) {
            JsonNode named = at.path("properties").path(key);
            at = named.isMissingNode() && at.path("additionalProperties").isObject()
                    ? at.path("additionalProperties")
                    : named;
        }
        return at;
    }

    /** The text as the schema's type: a string as it is, any other type as JSON; JSON or text where unknown. */
    private static JsonNode typed(String text, JsonNode schema, String option) {
        String type = schema.path("type").asString("");
        if (type.equals("string")) {
            return JsonTrees.MAPPER.getNodeFactory().stringNode(text);
        }
        JsonNode value = InputOptions.value(text);
        boolean fits = switch (type) {
            case "integer" -> value.isIntegralNumber();
            case "boolean" -> value.isBoolean();
            case "array" -> value.isArray();
            case "object" -> value.isObject();
            default -> true;
        };
        if (!fits) {
            throw CliException.usage("--option " + option + ": expected " + expected(type) + ", got '" + text + "'");
        }
        return value;
    }

    private static String expected(String type) {
        return switch (type) {
            case "integer" -> "an integer";
            case "boolean" -> "true or false";
            case "array" -> "a JSON array, e.g. [\"a\", \"b\"]";
            default -> "a JSON object";
        };
    }

    private static void put(ObjectNode into, List<String> path, JsonNode value) {
        ObjectNode at = into;
        for (String key : path.subList(0, path.size() - 1)) {
            JsonNode next = at.get(key);
            at = next instanceof ObjectNode object ? object : at.putObject(key);
        }
        at.set(path.getLast(), value);
    }
}
