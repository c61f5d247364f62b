package dev.cairn.storage.graph;

/**
 * A data node: a value, a structure, files, a pointer to a remote folder, a code. Data is
 * what calculations take and make. Plugins add data types by extending this class and
 * registering them through {@link DataTypeProvider}.
 */
public abstract non-sealed class Data extends Node {

    /** A new data node; {@code nodeType} must start with {@code data.} and end with '.'. */
    protected Data(String nodeType) {
        super(requireData(nodeType), null);
    }

    /** A stored data node read back. */
    protected Data(NodeRecord row) {
        super(row);
    }

    private static String requireData(String nodeType) {
        if (nodeType == null || !nodeType.startsWith(LinkType.NodeClass.DATA.typePrefix())) {
            throw new UnknownNodeTypeException("data node types start with 'data.', got '" + nodeType + "'");
        }
        return nodeType;
    }
}
