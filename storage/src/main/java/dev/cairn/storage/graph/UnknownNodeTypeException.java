package dev.cairn.storage.graph;

/** A node type string that no registered node class claims. */
public final class UnknownNodeTypeException extends GraphException {

    public UnknownNodeTypeException(String message) {
        super(message);
    }
}
