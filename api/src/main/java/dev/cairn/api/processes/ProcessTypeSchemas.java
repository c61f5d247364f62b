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
 * {@code $defs} stay inside it; references to them are made absolute in the document.
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
        Map<String, Object> placed = (Map<String, Object>) anchored(schema, "#/components/schemas/" + name);
        openApi.getComponents().addSchemas(name, Json31.mapper().convertValue(placed, Schema.class));
    }

    /** {@code value} with references into its own {@code $defs} made absolute in the document. */
    private static Object anchored(Object value, String at) {
        return switch (value) {
            case Map<?, ?> map -> {
                Map<String, Object> copy = new LinkedHashMap<>();
                map.forEach((k, v) -> copy.put(
                        (String) k,
                        "$ref".equals(k) && v instanceof String ref && ref.startsWith("#/")
                                ? at + ref.substring(1)
                                : anchored(v, at)));
                yield copy;
            }
            case List<?> list -> {
                List<Object> copy = new ArrayList<>(list.size());
                list.forEach(v -> copy.add(anchored(v, at)));
                yield copy;
            }
            case null, default -> value;
        };
    }
}
