package dev.cairn.storage.graph;

import dev.cairn.storage.errors.ConflictException;

/** A stored node was asked to change what storing froze. */
final class ModificationNotAllowedException extends ConflictException {

    public ModificationNotAllowedException(String message) {
        super(message);
    }

    public ModificationNotAllowedException(String message, Throwable cause) {
        super(message, cause);
    }
}
