package dev.cairn.cli.output;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A provenance graph in Graphviz's DOT language, as verdi's {@code node graph generate} draws it: data as
 * ellipses, calculations as rectangles, workflows as rectangles with rounded corners, the node asked about
 * filled, and each link labelled with its type and label.
 */
public final class DotGraph {

    private final Map<String, String> nodes = new LinkedHashMap<>();
    private final List<String> edges = new ArrayList<>();

    /**
     * Adds a node.
     *
     * @param uuid     its uuid, its id in the graph
     * @param nodeType its node type ({@code data.core.int.Int.}), which chooses the shape
     * @param text     what it says (class, PK, label, a value)
     * @param root     whether it is the node the graph is about
     */
    public DotGraph node(String uuid, String nodeType, String text, boolean root) {
        String shape = nodeType.startsWith("process.workflow.")
                ? "shape=box, style=\"rounded" + (root ? ",filled" : "") + "\""
                : nodeType.startsWith("process.")
                        ? "shape=box" + (root ? ", style=filled" : "")
                        : "shape=ellipse" + (root ? ", style=filled" : "");
        String colour = nodeType.startsWith("process.") ? "#e38851" : "#8cd499";
        nodes.put(
                uuid,
                "  " + quote(uuid) + " [label=" + quote(text) + ", " + shape + ", color=" + quote(colour)
                        + (root ? ", fillcolor=\"#ffffaa\", penwidth=2" : "") + "];");
        return this;
    }

    public boolean has(String uuid) {
        return nodes.containsKey(uuid);
    }

    /** A link from {@code from} to {@code to}: its type and label (dashed for call and return links). */
    public DotGraph link(String from, String to, String type, String label) {
        String style = type.startsWith("call") || type.equals("return") ? ", style=dashed" : "";
        edges.add("  " + quote(from) + " -> " + quote(to) + " [label="
                + quote(type.toUpperCase(Locale.ROOT) + "\n" + label) + ", fontsize=10" + style + "];");
        return this;
    }

    public int nodeCount() {
        return nodes.size();
    }

    public int linkCount() {
        return edges.size();
    }

    /** The graph as DOT text. */
    public String render() {
        StringBuilder dot = new StringBuilder("digraph provenance {\n");
        dot.append("  node [fontname=\"Helvetica\", fontsize=11];\n");
        dot.append("  edge [fontname=\"Helvetica\"];\n");
        nodes.values().forEach(n -> dot.append(n).append('\n'));
        edges.forEach(e -> dot.append(e).append('\n'));
        return dot.append("}\n").toString();
    }

    /** A DOT string: quotes and backslashes escaped, a newline as DOT's centred line break. */
    static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
    }
}
