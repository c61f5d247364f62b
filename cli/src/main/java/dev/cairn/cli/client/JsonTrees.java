package dev.cairn.cli.client;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/** The one JSON mapper of the command line: trees in and out, so no class is bound to the server's shapes. */
public final class JsonTrees {

    public static final JsonMapper MAPPER = JsonMapper.builder().build();

    private JsonTrees() {}

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    public static JsonNode parse(String text) {
        return MAPPER.readTree(text);
    }

    /** Two-space indented, as {@code --json} prints. */
    public static String pretty(JsonNode node) {
        return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(node);
    }

    public static String compact(JsonNode node) {
        return MAPPER.writeValueAsString(node);
    }

    /** A field's text, or {@code otherwise} when it is missing or null. */
    public static String text(JsonNode node, String field, String otherwise) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? otherwise : value.asString();
    }
}
