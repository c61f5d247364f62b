package dev.cairn.api.pages.graph;

import java.util.Map;

/**
 * The colours and line styles of the graph, one table for the page (sent with the graph, read by its
 * script) and the SVG export, so that both look the same and the legend tells both.
 */
final class GraphStyle {

    /** Link type: colour and dash pattern ("" solid). */
    record Line(String colour, String dash, String meaning) {}

    static final Map<String, Line> LINKS = Map.of(
            "create", new Line("#2e7d32", "", "a calculation created this data"),
            "return", new Line("#66bb6a", "6 3", "a workflow returned this data"),
            "input_calc", new Line("#1565c0", "", "data went into a calculation"),
            "input_work", new Line("#64b5f6", "6 3", "data went into a workflow"),
            "call_calc", new Line("#6a1b9a", "2 3", "a workflow called a calculation"),
            "call_work", new Line("#ab47bc", "2 3", "a workflow called a workflow"),
            "fold", new Line("#9e9e9e", "4 4", "to a folded fan-out"));

    /** Fill of a process by state, of data, and of a fold. */
    static final Map<String, String> FILLS = Map.of(
            "created", "#6c757d",
            "running", "#0d6efd",
            "waiting", "#0aa2c0",
            "finished", "#198754",
            "failed", "#d97706",
            "excepted", "#dc3545",
            "killed", "#8b5cf6",
            "data", "#e3ecf5",
            "fold", "#f5f5f5",
            "block", "#fafafa");

    private GraphStyle() {}

    static String fill(DrawnGraph.Node node) {
        if (node.state() != null) {
            return FILLS.getOrDefault(node.state(), FILLS.get("created"));
        }
        return switch (node.kind()) {
            case "fold" -> FILLS.get("fold");
            case "block" -> FILLS.get("block");
            case "data" -> FILLS.get("data");
            default -> FILLS.get("created"); // a process that has no state of its own (imported, stored as is)
        };
    }

    static String text(DrawnGraph.Node node) {
        return "data".equals(node.kind()) || "fold".equals(node.kind()) || "block".equals(node.kind())
                ? "#1b1f24"
                : "#ffffff";
    }
}
