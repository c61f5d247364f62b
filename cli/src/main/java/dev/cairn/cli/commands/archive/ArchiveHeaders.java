package dev.cairn.cli.commands.archive;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.TextTable;

/** An archive's header as {@code archive info}, {@code inspect}, {@code import} and {@code create} print it. */
final class ArchiveHeaders {

    private ArchiveHeaders() {}

    /** Format, producer, time, starting set and what was included: one line each. */
    static void describe(Output out, JsonNode header) {
        out.line("format:    " + header.path("format").asString() + " "
                + header.path("version").asString());
        out.line("producer:  " + header.path("producer").asString(""));
        String created = header.path("created").asString("");
        out.line("created:   " + created + (created.isEmpty() ? "" : " (" + out.ago(created) + ")"));
        JsonNode parameters = header.path("parameters");
        if (parameters.has("entities")) {
            out.line("from:      " + startingSet(parameters.get("entities")));
        }
        List<String> rules = new ArrayList<>();
        parameters.path("traversal_rules").properties().forEach(r -> {
            if (r.getValue().asBoolean()) {
                rules.add(r.getKey());
            }
        });
        if (!rules.isEmpty()) {
            out.line("rules:     " + String.join(", ", rules));
        }
        List<String> included = new ArrayList<>();
        for (String what : List.of("comments", "logs", "authinfos")) {
            JsonNode flag = parameters.get("include_" + what);
            if (flag != null) {
                included.add((flag.asBoolean() ? "" : "no ") + what);
            }
        }
        if (!included.isEmpty()) {
            out.line("includes:  " + String.join(", ", included));
        }
    }

    private static String startingSet(JsonNode entities) {
        if (entities == null || entities.isNull()) {
            return "everything";
        }
        List<String> kinds = new ArrayList<>();
        entities.properties().forEach(e -> {
            if (!e.getValue().isEmpty()) {
                kinds.add(e.getValue().size() + " " + e.getKey());
            }
        });
        return kinds.isEmpty() ? "nothing" : String.join(", ", kinds);
    }

    /** Rows per part, a column per answer the command has (in the archive, added, bytes, ...). */
    static TextTable parts(JsonNode counts, Map<String, JsonNode> columns) {
        List<String> headers = new ArrayList<>(List.of("PART", "COUNT"));
        headers.addAll(columns.keySet());
        TextTable t = TextTable.of(headers.toArray(String[]::new));
        t.alignRight(headers.subList(1, headers.size()).toArray(String[]::new));
        counts.properties().forEach(part -> {
            List<Object> row =
                    new ArrayList<>(List.of(part.getKey(), part.getValue().asLong()));
            columns.values()
                    .forEach(column -> row.add(column.path(part.getKey()).asString("")));
            t.row(row.toArray());
        });
        return t;
    }

    /** {@code 42 nodes, 60 links, 1 group, 12 objects}: the parts people count by. */
    static String brief(JsonNode counts) {
        return String.join(
                ", ",
                counted(counts, "nodes", "node"),
                counted(counts, "links", "link"),
                counted(counts, "groups", "group"),
                counted(counts, "objects", "object"));
    }

    private static String counted(JsonNode counts, String part, String one) {
        long n = counts.path(part).asLong();
        return n + " " + (n == 1 ? one : part);
    }
}
