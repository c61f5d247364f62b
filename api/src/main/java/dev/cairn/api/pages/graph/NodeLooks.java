package dev.cairn.api.pages.graph;

import java.util.Locale;

import dev.cairn.storage.graph.traversal.Neighbourhood;

/** How a node is named and drawn: its kind (the shape), its short type, its label. */
final class NodeLooks {

    static final double DATA_WIDTH = 110;
    static final double PROCESS_WIDTH = 150;
    static final double HEIGHT = 36;

    private NodeLooks() {}

    static String kind(String nodeType) {
        if (nodeType.startsWith("process.workflow.")) {
            return "workflow";
        }
        return nodeType.startsWith("process.") ? "calculation" : "data";
    }

    /** {@code data.core.int.Int.} is Int; a process is named after its entry point. */
    static String type(Neighbourhood.Vertex v) {
        if (v.processType() != null && !v.processType().isEmpty()) {
            return v.processType();
        }
        String[] parts = v.nodeType().split("\\.");
        return parts.length == 0 ? v.nodeType() : parts[parts.length - 1];
    }

    /**
     * The label (or type) over the PK, as the other pages name a node: a uuid's first digits are the moment
     * it was made, the same for every node of a run.
     */
    static String label(Neighbourhood.Vertex v) {
        String type = type(v);
        String shortType = type.contains(".") ? type.substring(type.lastIndexOf('.') + 1) : type;
        String label = v.label() == null || v.label().isEmpty() ? shortType : v.label();
        return label + "\n" + v.id();
    }

    /** A process's state as the page colours it; null for data. */
    static String state(Neighbourhood.Vertex v) {
        if (v.state() == null) {
            return null;
        }
        String state = v.state().toLowerCase(Locale.ROOT);
        return "finished".equals(state) && v.exitStatus() != null && v.exitStatus() != 0 ? "failed" : state;
    }

    static double width(String kind) {
        return "data".equals(kind) ? DATA_WIDTH : PROCESS_WIDTH;
    }
}
