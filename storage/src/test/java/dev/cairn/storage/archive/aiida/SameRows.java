package dev.cairn.storage.archive.aiida;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.storage.archive.ArchivePart;

/**
 * Compares rows of one part, as sets: times as instants (AiiDA's report writes {@code +00:00}, the
 * reader {@code Z}), everything else as JSON values.
 */
final class SameRows {

    private static final Set<String> TIMES = Set.of("ctime", "mtime", "time");

    private SameRows() {}

    static void assertSameRows(ArchivePart part, Iterable<JsonNode> expected, Iterable<JsonNode> actual) {
        assertEquals(normalised(expected), normalised(actual), "rows of " + part.key());
    }

    /** The rows keyed by their identity (uuid, email, or the whole row), each normalised. */
    private static TreeMap<String, JsonNode> normalised(Iterable<JsonNode> rows) {
        TreeMap<String, JsonNode> out = new TreeMap<>();
        List<String> duplicates = new ArrayList<>();
        for (JsonNode row : rows) {
            ObjectNode copy = ((ObjectNode) row).deepCopy();
            for (String field : TIMES) {
                JsonNode value = copy.get(field);
                if (value != null && value.isString()) {
                    copy.put(
                            field,
                            OffsetDateTime.parse(value.asString()).toInstant().toString());
                }
            }
            String key = copy.has("uuid")
                    ? copy.get("uuid").asString()
                    : copy.has("email") ? copy.get("email").asString() : sorted(copy);
            if (out.put(key, copy) != null) {
                duplicates.add(key);
            }
        }
        assertEquals(List.of(), duplicates, "rows that appear twice");
        return out;
    }

    /** A row's fields in name order, whatever order they were written in. */
    private static String sorted(ObjectNode row) {
        TreeMap<String, String> fields = new TreeMap<>();
        row.properties().forEach(e -> fields.put(e.getKey(), e.getValue().toString()));
        return fields.toString();
    }
}
