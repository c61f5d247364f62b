package dev.cairn.storage.graph;

import dev.cairn.storage.errors.NotFoundException;

/** No stored node has the id or uuid asked for. */
public final class NodeNotFoundException extends NotFoundException {

    /** No node is found, as {@code message} says. */
    public NodeNotFoundException(String message) {
        super(message);
    }
}
