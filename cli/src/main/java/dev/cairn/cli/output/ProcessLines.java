package dev.cairn.cli.output;

import java.util.List;
import java.util.Locale;
import java.util.Map;

import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.JsonTrees;

/** How processes read in a terminal: their state with exit status, a short id, the call tree. */
public final class ProcessLines {

    /** The states a process ends in. */
    public static final List<String> ENDED = List.of("finished", "excepted", "killed");

    private static final int SHORT = 18;

    private ProcessLines() {}

    /** Whether a process (as lists show it) ended. */
    public static boolean ended(JsonNode process) {
        return ENDED.contains(JsonTrees.text(process, "state", ""));
    }

    /** Whether it ended well: finished with exit status 0. */
    public static boolean succeeded(JsonNode process) {
        return "finished".equals(JsonTrees.text(process, "state", ""))
                && process.path("exit_status").asInt(-1) == 0;
    }

    /**
     * What tables show of a uuid: its first 18 characters. Cairn's uuids are of version 7, the
     * millisecond they were made first (13 characters), so a shorter prefix names every node of that
     * moment; the next 12 bits are random, which tells apart the nodes of one millisecond.
     */
    public static String shortId(String uuid) {
        return uuid == null || uuid.length() < SHORT ? uuid : uuid.substring(0, SHORT);
    }

    /** "Finished [0]", "Waiting (paused)", "Excepted", coloured on a terminal. */
    public static String state(JsonNode process, Style style) {
        String state = JsonTrees.text(process, "state", "?");
        StringBuilder text = new StringBuilder(capitalised(state));
        JsonNode exit = process.get("exit_status");
        if (exit != null && !exit.isNull()) {
            text.append(" [").append(exit.asString()).append(']');
        }
        if (process.path("paused").asBoolean(false)) {
            text.append(" (paused)");
        }
        String plain = text.toString();
        if (!style.on()) {
            return plain;
        }
        if (succeeded(process)) {
            return style.good(plain);
        }
        return ended(process) ? style.bad(plain) : process.path("paused").asBoolean(false) ? style.warn(plain) : plain;
    }

    /** "examples.sum_series<42>": what ran, and which. */
    public static String name(JsonNode process) {
        return JsonTrees.text(process, "entry_point", "?") + "<" + id(process) + ">";
    }

    /** What a person types to name a node the server listed: its PK, else a prefix of its uuid. */
    public static String id(JsonNode node) {
        JsonNode pk = node.get("pk");
        return pk != null && pk.isNumber() ? pk.asString() : shortId(JsonTrees.text(node, "uuid", "?"));
    }

    /**
     * A call tree ({@code {process, called: [...]}}) as indented lines, as {@code verdi process status}
     * draws it, down to {@code maxDepth} levels below the top (negative: all).
     */
    public static void tree(JsonNode node, int maxDepth, Style style, List<String> into) {
        into.add(line(node.get("process"), style));
        children(node, "", 1, maxDepth, style, into);
    }

    private static void children(
            JsonNode node, String indent, int depth, int maxDepth, Style style, List<String> into) {
        if (maxDepth >= 0 && depth > maxDepth) {
            return;
        }
        JsonNode called = node.path("called");
        for (int i = 0; i < called.size(); i++) {
            boolean last = i == called.size() - 1;
            JsonNode child = called.get(i);
            into.add(indent + (last ? "└── " : "├── ") + line(child.get("process"), style));
            children(child, indent + (last ? "    " : "│   "), depth + 1, maxDepth, style, into);
        }
    }

    private static String line(JsonNode process, Style style) {
        String status = JsonTrees.text(process, "process_status", null);
        return name(process) + " " + state(process, style)
                + (status == null || status.isEmpty() || ended(process) ? "" : " " + style.dim(status));
    }

    private static String capitalised(String s) {
        return s.isEmpty() ? s : s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
    }

    /** A table of a process's input or output ports, each with its node's PK, type and value. */
    public static void ports(String title, JsonNode ports, Output out) {
        if (ports.isEmpty()) {
            return;
        }
        out.line("");
        TextTable t = TextTable.of(title, "PK", "Type", "Value");
        for (Map.Entry<String, JsonNode> port : ports.properties()) {
            JsonNode node = port.getValue();
            JsonNode value = node.get("value");
            t.row(
                    port.getKey(),
                    ProcessLines.id(node),
                    JsonTrees.text(node, "node_type", ""),
                    value == null || value.isNull()
                            ? ""
                            : value.isString() ? value.asString() : JsonTrees.compact(value));
        }
        out.print(t);
    }
}
