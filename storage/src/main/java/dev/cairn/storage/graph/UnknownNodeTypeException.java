package dev.cairn.storage.graph;

import dev.cairn.storage.errors.InvalidInputException;

/** A node type string that no registered node class claims. */
final class UnknownNodeTypeException extends InvalidInputException {

    public UnknownNodeTypeException(String message) {
        super(message);
    }
}
