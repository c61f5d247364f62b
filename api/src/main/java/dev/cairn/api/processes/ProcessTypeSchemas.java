package dev.cairn.api.processes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.swagger.v3.core.util.Json31;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.stereotype.Component;

import dev.cairn.engine.Engine;
import dev.cairn.engine.launch.JsonInputs;
import dev.cairn.engine.process.ProcessDefinition;

/**
 * Puts every process type's schemas into the OpenAPI document, as components named
 * {@code <entry_point>.inputs}, {@code .metadata} and {@code .outputs}, so that client
 * generators and form builders find them where they find the rest. Each schema's own
 * {@code $defs} become components of their own ({@code node_reference} → {@code NodeReference}),
 * shared by the schemas whose definitions are equal: generators resolve references to
 * components, not into another schema's {@code $defs} (openapi-python-client drops a schema that
 * has one).
 */
@Component
class ProcessTypeSchemas implements OpenApiCustomizer {

    private final Engine engine;

    ProcessTypeSchemas(Engine engine) {
        this.engine = engine;
    }

    @Override
    public void customise(OpenAPI openApi) {
        if (openApi.getComponents() == null) {
            openApi.setComponents(new Components());
        }
        for (ProcessDefinition definition : engine.plugins().all()) {
            add(openApi, definition.entryPoint() + ".inputs", definition.spec().inputSchema());
            add(openApi, definition.entryPoint() + ".metadata", JsonInputs.metadataSchema(definition));
            add(openApi, definition.entryPoint() + ".outputs", definition.spec().outputSchema());
        }
    }

    private static void add(OpenAPI openApi, String name, Map<String, Object> jsonSchema) {
        Map<String, Object> schema = new LinkedHashMap<>(jsonSchema);
        // the document says its dialect once (OpenAPI 3.1 is JSON Schema 2020-12)
        schema.remove("$schema");
        @SuppressWarnings("unchecked")
        Map<String, Object> defs = (Map<String, Object>) schema.remove("$defs");
        Map<String, String> placedAs = new LinkedHashMap<>();
        if (defs != null) {
            defs.forEach((def, definition) -> placedAs.put(def, place(openApi, name, def, flattened(def, definition))));
            // a definition may refer to another: place them all first, then rewrite their references
            placedAs.values().forEach(component -> {
                Schema<?> placed = openApi.getComponents().getSchemas().get(component);
                Object rewritten = anchored(Json31.mapper().convertValue(placed, Map.class), placedAs);
                openApi.getComponents().addSchemas(component, Json31.mapper().convertValue(rewritten, Schema.class));
            });
        }
        openApi.getComponents()
                .addSchemas(name, Json31.mapper().convertValue(anchored(untitled(schema), placedAs), Schema.class));
    }

    /**
     * A definition that refers to itself (a JSON value whose arrays and objects hold JSON values)
     * with those references made "any value": generators cannot make a type of a union that
     * contains itself (openapi-python-client drops it). The description says what the schema no
     * longer checks below the first level.
     */
    @SuppressWarnings("unchecked")
    private static Object flattened(String def, Object definition) {
        String self = "#/$defs/" + def;
        if (!(definition instanceof Map<?, ?> map) || !String.valueOf(map).contains(self)) {
            return definition;
        }
        Map<String, Object> flat = (Map<String, Object>) withoutRefTo(definition, self);
        flat.put(
                "description",
                flat.getOrDefault("description", "a JSON value")
                        + "; nested arrays and objects are held to the same rule, which this schema checks at the"
                        + " first level only");
        return flat;
    }

    private static Object withoutRefTo(Object value, String ref) {
        return switch (value) {
            case Map<?, ?> map when ref.equals(map.get("$ref")) -> new LinkedHashMap<String, Object>();
            case Map<?, ?> map -> {
                Map<String, Object> copy = new LinkedHashMap<>();
                map.forEach((k, v) -> copy.put((String) k, withoutRefTo(v, ref)));
                yield copy;
            }
            case List<?> list -> list.stream().map(v -> withoutRefTo(v, ref)).toList();
            case null, default -> value;
        };
    }

    /**
     * Drops the titles of the schema's properties (their node classes, which {@code x-cairn-node-type}
     * names too): a generator names the model of an object property after its title, and two ports
     * of one class ({@code stdout}, {@code stderr}) would make two models of one name.
     */
    private static Map<String, Object> untitled(Map<String, Object> schema) {
        Map<String, Object> copy = new LinkedHashMap<>(schema);
        if (schema.get("properties") instanceof Map<?, ?> properties) {
            Map<String, Object> untitledProperties = new LinkedHashMap<>();
            properties.forEach((name, property) -> {
                if (property instanceof Map<?, ?> p) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> inner = untitled((Map<String, Object>) p);
                    inner.remove("title");
                    untitledProperties.put((String) name, inner);
                } else {
                    untitledProperties.put((String) name, property);
                }
            });
            copy.put("properties", untitledProperties);
        }
        return copy;
    }

    /**
     * Puts a definition into the components under its name in camel case, or, when a different
     * definition has that name there already, under {@code <schema>.<def>}; returns the name used.
     */
    private static String place(OpenAPI openApi, String schemaName, String def, Object definition) {
        String shared = camelCase(def);
        Schema<?> existing = openApi.getComponents().getSchemas() == null
                ? null
                : openApi.getComponents().getSchemas().get(shared);
        Schema<?> candidate = Json31.mapper().convertValue(definition, Schema.class);
        if (existing != null && !existing.equals(candidate)) {
            shared = schemaName + "." + def;
        }
        openApi.getComponents().addSchemas(shared, candidate);
        return shared;
    }

    static String camelCase(String name) {
        StringBuilder out = new StringBuilder();
        for (String part : name.split("[_.-]+")) {
            if (!part.isEmpty()) {
                out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
            }
        }
        return out.toString();
    }

    /** {@code value} with references into its own {@code $defs} pointing at the components they became. */
    private static Object anchored(Object value, Map<String, String> placedAs) {
        return switch (value) {
            case Map<?, ?> map -> {
                Map<String, Object> copy = new LinkedHashMap<>();
                map.forEach((k, v) -> copy.put(
                        (String) k,
                        "$ref".equals(k) && v instanceof String ref && ref.startsWith("#/$defs/")
                                ? "#/components/schemas/" + placedAs.getOrDefault(ref.substring(8), ref.substring(8))
                                : anchored(v, placedAs)));
                yield copy;
            }
            case List<?> list -> {
                List<Object> copy = new ArrayList<>(list.size());
                list.forEach(v -> copy.add(anchored(v, placedAs)));
                yield copy;
            }
            case null, default -> value;
        };
    }
}
