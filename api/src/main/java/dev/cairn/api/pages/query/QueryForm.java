package dev.cairn.api.pages.query;

import java.util.Arrays;
import java.util.List;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * The query page's form: what a person fills in instead of writing a query, and the query builder's JSON it
 * makes (one vertex, its type and label, one condition, what to show, an order and a limit). Blank fields
 * add nothing; the JSON is checked where every query is, when it runs.
 *
 * @param entity   what to find: node, group, computer, user, comment or log
 * @param type     a node type such as {@code data.core.int.Int.} (its subtypes too)
 * @param label    an exact label
 * @param field    the field of the condition, such as {@code attributes.energy}
 * @param operator the condition's operator, one of {@link #OPERATORS}
 * @param value    the condition's value: JSON ({@code -0.9}, {@code true}, {@code ["a", "b"]}) or else text
 * @param project  what to show, separated by commas; blank shows {@link #SHOWN_BY_DEFAULT} of a node
 * @param orderBy  the field to order by
 * @param order    {@code asc} or {@code desc}
 * @param limit    at most this many rows
 */
record QueryForm(
        String entity,
        String type,
        String label,
        String field,
        String operator,
        String value,
        String project,
        String orderBy,
        String order,
        String limit) {

    static final List<String> ENTITIES = List.of("node", "group", "computer", "user", "comment", "log");
    static final List<String> OPERATORS = List.of("==", "<", "<=", ">", ">=", "like", "ilike", "in", "has_key");
    static final String SHOWN_BY_DEFAULT = "uuid, node_type, label, ctime";

    /** The query builder's JSON of this form. */
    String json(JsonMapper mapper) {
        String what = blank(entity) ? "node" : entity.strip();
        ObjectNode vertex = mapper.createObjectNode().put("tag", "q").put("entity", what);
        if (!blank(type)) {
            vertex.put("node_type", type.strip());
        }
        ObjectNode filters = mapper.createObjectNode();
        if (!blank(label)) {
            filters.set("label", mapper.createObjectNode().put("==", label.strip()));
        }
        if (!blank(field)) {
            String op = blank(operator) ? "==" : operator.strip();
            filters.set(field.strip(), mapper.createObjectNode().set(op, value(mapper, op)));
        }
        if (!filters.isEmpty()) {
            vertex.set("filters", filters);
        }
        ArrayNode projections = vertex.putArray("project");
        String shown = !blank(project) ? project : what.equals("node") ? SHOWN_BY_DEFAULT : "*";
        Arrays.stream(shown.split(","))
                .map(String::strip)
                .filter(p -> !p.isEmpty())
                .forEach(projections::add);
        ObjectNode query = mapper.createObjectNode();
        query.putArray("path").add(vertex);
        if (!blank(orderBy)) {
            query.putArray("order_by")
                    .addObject()
                    .put("tag", "q")
                    .put("field", orderBy.strip())
                    .put("order", "desc".equals(order) ? "desc" : "asc");
        }
        if (!blank(limit)) {
            try {
                query.put("limit", Integer.parseInt(limit.strip()));
            } catch (NumberFormatException e) {
                throw new InvalidInputException("the limit must be a whole number, not '" + limit + "'");
            }
        }
        return mapper.writeValueAsString(query);
    }

    /** The condition's value: what it says as JSON, or the text itself where it is not JSON ({@code Si}). */
    private JsonNode value(JsonMapper mapper, String op) {
        String text = value == null ? "" : value.strip();
        if (!text.isEmpty() && !op.equals("like") && !op.equals("ilike")) {
            try {
                return mapper.readTree(text);
            } catch (JacksonException notJson) {
                // a word such as Si: the text
            }
        }
        return mapper.getNodeFactory().stringNode(text);
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
