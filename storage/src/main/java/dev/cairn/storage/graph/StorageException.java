package dev.cairn.storage.graph;

import dev.cairn.storage.errors.UnavailableException;

/**
 * The database failed in a way the caller did not cause: a lost connection, a server error.
 * The request may succeed once the database is back.
 */
public final class StorageException extends UnavailableException {

    /** The database failed while doing what {@code message} says; {@code cause} is its error. */
    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
