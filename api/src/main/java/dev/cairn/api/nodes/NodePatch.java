package dev.cairn.api.nodes;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import io.swagger.v3.oas.annotations.media.Schema;

import dev.cairn.api.web.Json;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;

/**
 * A change to what stays mutable of a stored node, from a PATCH body: the label, the description,
 * and extras merged into the node's (a key set to {@code null} is removed). Attributes never change
 * once a node is stored: naming them is a conflict, not a typo.
 *
 * @param label        the new label, or null to keep it
 * @param description  the new description, or null to keep it
 * @param extras       extras to set
 * @param removeExtras extras to remove
 */
record NodePatch(String label, String description, Map<String, Object> extras, List<String> removeExtras) {

    private static final List<String> FIELDS = List.of("description", "extras", "label");

    /** The body's form, for the API's description. */
    @Schema(
            name = "NodePatch",
            description = "What to change; fields left out stay as they are. Extras are merged into the node's:"
                    + " a key set to null is removed.")
    record Body(
            @Schema(example = "relaxed") String label,
            @Schema(example = "after the second relaxation") String description,

            @Schema(example = "{\"checked\": true, \"old_tag\": null}")
            Map<String, Object> extras) {}

    static NodePatch parse(String body) {
        Map<String, Object> json;
        try {
            json = Json.readObject(body == null || body.isBlank() ? "{}" : body);
        } catch (InvalidInputException e) {
            throw new InvalidInputException("the body: " + e.getMessage());
        }
        if (json.containsKey("attributes")) {
            throw new ConflictException("the attributes of a stored node never change; a PATCH changes " + FIELDS
                    + " only (make a new node for new attributes)");
        }
        for (String key : json.keySet()) {
            if (!FIELDS.contains(key)) {
                throw new InvalidInputException("unknown field '" + key + "'; known fields are " + FIELDS);
            }
        }
        Map<String, Object> set = new LinkedHashMap<>();
        List<String> remove = new ArrayList<>();
        if (json.containsKey("extras")) {
            if (!(json.get("extras") instanceof Map<?, ?> extras)) {
                throw new InvalidInputException(
                        "field 'extras': expected an object of extras (a null value removes one), got "
                                + describe(json.get("extras")));
            }
            extras.forEach((k, v) -> {
                if (v == null) {
                    remove.add((String) k);
                } else {
                    set.put((String) k, v);
                }
            });
        }
        return new NodePatch(text(json, "label"), text(json, "description"), set, remove);
    }

    private static String text(Map<String, Object> json, String field) {
        if (!json.containsKey(field)) {
            return null;
        }
        if (!(json.get(field) instanceof String s)) {
            throw new InvalidInputException("field '" + field + "': expected a string, got " + describe(json.get(field))
                    + (json.get(field) == null ? " (\"\" clears it)" : ""));
        }
        return s;
    }

    private static String describe(Object value) {
        return switch (value) {
            case null -> "null";
            case String s -> "a string";
            case Boolean b -> "a boolean";
            case Number n -> "a number";
            case List<?> l -> "an array";
            case Map<?, ?> m ->
                "an object with keys "
                        + new TreeSet<>(m.keySet().stream().map(String::valueOf).toList());
            default -> value.getClass().getSimpleName();
        };
    }
}
