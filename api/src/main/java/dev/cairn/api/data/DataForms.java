package dev.cairn.api.data;

import java.util.List;
import java.util.Set;

import tools.jackson.databind.JsonNode;

import dev.cairn.engine.launch.JsonData;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.Data;

/**
 * New data nodes from their typed JSON form, {@code {"type": "float", "value": 1.5}}: the data classes
 * and values an upload takes (POST /api/v1/nodes), for requests that carry new data among other things.
 */
public final class DataForms {

    /** The form's fields. */
    private static final Set<String> FIELDS = Set.of("type", "value");

    private DataForms() {}

    /**
     * An unstored node from {@code form}; what is wrong is added to {@code problems}, each beginning with
     * {@code where}, and null returned.
     */
    public static Data decode(String where, JsonNode form, List<String> problems) {
        if (!form.isObject() || !form.has("type") || !form.has("value")) {
            problems.add(where + ": expected {\"type\": …, \"value\": …} with type one of " + DataKind.names()
                    + ", or a stored node as {\"uuid\": \"…\"}");
            return null;
        }
        for (String field : form.propertyNames()) {
            if (!FIELDS.contains(field)) {
                problems.add(where + ": unknown field '" + field + "'; a value has the fields type and value");
                return null;
            }
        }
        JsonNode type = form.get("type");
        if (!type.isString()) {
            problems.add(where + ": 'type' must be a string, one of " + DataKind.names());
            return null;
        }
        try {
            DataKind kind = DataKind.of(type.stringValue());
            return JsonData.decode(kind.type(), form.get("value"));
        } catch (InvalidInputException e) {
            problems.add(where + ": "
                    + e.getMessage().replaceFirst("^the value:? ?", "").replaceFirst("^field ", ""));
            return null;
        }
    }
}
