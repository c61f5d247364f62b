package dev.cairn.storage.graph;

import dev.cairn.storage.errors.NotFoundException;

/** No stored node has the id or uuid asked for. */
public final class NodeNotFoundException extends NotFoundException {

    public NodeNotFoundException(String message) {
        super(message);
    }
}
