package dev.cairn.engine.launch;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import tools.jackson.databind.JsonNode;

import dev.cairn.engine.process.CalcFunction;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.WorkChainDefinition;
import dev.cairn.engine.process.WorkFunction;
import dev.cairn.storage.graph.computers.Computer;

/**
 * A launch's metadata in JSON (AiiDA's {@code metadata}): {@code use_cache} for any process;
 * {@code options} and {@code computer} for calculation jobs only.
 */
final class LaunchMetadata {

    static final String USE_CACHE = "use_cache";
    static final String OPTIONS = JobOptionsJson.PATH;
    static final String COMPUTER = "computer";

    private final ReferenceResolver references;

    LaunchMetadata(ReferenceResolver references) {
        this.references = Objects.requireNonNull(references, "references");
    }

    /** Puts what {@code metadata} says into {@code into}; every problem goes into {@code problems}, named. */
    void decode(ProcessDefinition definition, JsonNode metadata, Inputs into, List<String> problems) {
        if (!metadata.isObject()) {
            problems.add("the metadata must be an object, got " + JsonValues.describe(metadata));
            return;
        }
        boolean job = definition instanceof CalcJobDefinition;
        for (Map.Entry<String, JsonNode> e : metadata.properties()) {
            String key = e.getKey();
            JsonNode value = e.getValue();
            String where = "metadata '" + key + "'";
            if (!List.of(USE_CACHE, OPTIONS, COMPUTER).contains(key)) {
                problems.add(where + " is not a metadata key; valid keys are " + keys(job));
                continue;
            }
            if (!job && !key.equals(USE_CACHE)) {
                problems.add(where + ": only calculation jobs take " + key + "; " + definition.entryPoint() + " is "
                        + kind(definition));
                continue;
            }
            if (value.isNull()) {
                problems.add(where + " is null; leave it out for the default");
                continue;
            }
            switch (key) {
                case USE_CACHE -> {
                    if (value.isBoolean()) {
                        into.useCache(value.booleanValue());
                    } else {
                        problems.add(where + ": expected a boolean, got " + JsonValues.describe(value));
                    }
                }
                case OPTIONS -> into.jobOptions(JobOptionsJson.decode(value, problems));
                default -> computer(value, where, problems).ifPresent(c -> into.onComputer(c.id()));
            }
        }
    }

    /** The computer a label or a {@code {"uuid": …}} names. */
    private Optional<Computer> computer(JsonNode value, String where, List<String> problems) {
        if (value.isString()) {
            Optional<Computer> found = references.computerLabelled(value.stringValue());
            if (found.isEmpty()) {
                problems.add(where + ": no computer is labelled '" + JsonValues.abbreviated(value.stringValue()) + "'");
            }
            return found;
        }
        if (!JsonValues.isReference(value)) {
            problems.add(
                    where + ": expected a computer's label or {\"uuid\": \"…\"}, got " + JsonValues.describe(value));
            return Optional.empty();
        }
        UUID uuid = JsonValues.uuid(value, where, problems);
        if (uuid == null) {
            return Optional.empty();
        }
        Optional<Computer> found = references.computer(uuid);
        if (found.isEmpty()) {
            problems.add(where + ": no computer has uuid " + uuid);
        }
        return found;
    }

    /** The metadata of a launch of {@code definition} as JSON Schema (draft 2020-12). */
    static Map<String, Object> schema(ProcessDefinition definition) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put(
                USE_CACHE,
                Map.of(
                        "type",
                        "boolean",
                        "description",
                        "take the outputs of an identical finished calculation (true) or never (false),"
                                + " whatever the engine's caching policy says"));
        if (definition instanceof CalcJobDefinition) {
            properties.put(OPTIONS, JobOptionsJson.schema());
            Map<String, Object> byUuid = new LinkedHashMap<>();
            byUuid.put("type", "object");
            byUuid.put("properties", Map.of("uuid", Map.of("type", "string", "pattern", JsonValues.UUID_PATTERN)));
            byUuid.put("required", List.of("uuid"));
            byUuid.put("additionalProperties", false);
            properties.put(
                    COMPUTER,
                    Map.of(
                            "description",
                            "the computer to run a portable code on, by label or uuid",
                            "oneOf",
                            List.of(Map.of("type", "string"), byUuid)));
        }
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("additionalProperties", false);
        return schema;
    }

    private static List<String> keys(boolean job) {
        return job ? List.of(USE_CACHE, OPTIONS, COMPUTER) : List.of(USE_CACHE);
    }

    private static String kind(ProcessDefinition definition) {
        return switch (definition) {
            case CalcFunction f -> "a calcfunction";
            case WorkFunction f -> "a workfunction";
            case WorkChainDefinition<?> w -> "a work chain";
            case CalcJobDefinition j -> "a calculation job";
        };
    }
}
