package dev.cairn.cli.output;

import tools.jackson.databind.JsonNode;

/** A node's type as the command line shows it. */
public final class NodeTypeNames {

    private NodeTypeNames() {}

    /** The class part of a node type, with the process type of a process: {@code CalcJobNode (arithmetic.add)}. */
    public static String name(JsonNode node) {
        String type = node.path("node_type").asString();
        String[] parts = type.split("\\.");
        String name = parts.length == 0 ? type : parts[parts.length - 1];
        JsonNode process = node.path("process_type");
        return process.isString() && !process.asString().isEmpty() ? name + " (" + process.asString() + ")" : name;
    }
}
