package dev.cairn.storage.graph;

import dev.cairn.storage.errors.UnavailableException;

/**
 * The database, or the object store's bucket, failed in a way the caller did not cause: a lost
 * connection, a server error. The request may succeed once the database or the bucket is back.
 */
public final class StorageException extends UnavailableException {

    /** The database (or the bucket) failed while doing what {@code message} says; {@code cause} is its error. */
    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
