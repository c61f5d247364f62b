package dev.cairn.storage.graph;

/** No stored node has the id or uuid asked for. */
public final class NodeNotFoundException extends GraphException {

    public NodeNotFoundException(String message) {
        super(message);
    }
}
