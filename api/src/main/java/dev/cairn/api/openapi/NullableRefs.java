package dev.cairn.api.openapi;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import org.springdoc.core.customizers.GlobalOpenApiCustomizer;
import org.springframework.stereotype.Component;

/**
 * Makes a nullable property whose type is another schema ({@code @Schema(nullable = true)} on a record
 * component of a record type) say so in OpenAPI 3.1's terms. springdoc writes it as
 * {@code {"$ref": "…/Job", "type": "null"}}, and JSON Schema 2020-12 applies both, so no value but
 * null would match and a real job would break the document; this makes it
 * {@code {"anyOf": [{"$ref": "…/Job"}, {"type": "null"}]}}, keeping the description.
 */
@Component
class NullableRefs implements GlobalOpenApiCustomizer {

    @Override
    public void customise(OpenAPI openApi) {
        if (openApi.getComponents() == null || openApi.getComponents().getSchemas() == null) {
            return;
        }
        for (Schema<?> schema : openApi.getComponents().getSchemas().values()) {
            fix(schema);
        }
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static void fix(Schema<?> schema) {
        Map<String, Schema> properties = schema.getProperties();
        if (properties == null) {
            return;
        }
        for (Map.Entry<String, Schema> property : properties.entrySet()) {
            Schema<?> value = property.getValue();
            if (isNullableRef(value)) {
                Schema<Object> anyOf = new Schema<>();
                anyOf.setAnyOf(new ArrayList<>(List.of(
                        new Schema<>().$ref(value.get$ref()),
                        new Schema<>().types(new LinkedHashSet<>(List.of("null"))))));
                anyOf.setDescription(value.getDescription());
                property.setValue(anyOf);
            }
        }
    }

    private static boolean isNullableRef(Schema<?> schema) {
        if (schema.get$ref() == null) {
            return false;
        }
        boolean nullType = schema.getTypes() != null && schema.getTypes().contains("null");
        return nullType || Boolean.TRUE.equals(schema.getNullable());
    }
}
