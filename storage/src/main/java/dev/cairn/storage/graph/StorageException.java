package dev.cairn.storage.graph;

/**
 * The database failed in a way the caller did not cause: a lost connection, a server error.
 * Not one of the {@link CairnException} families, which are the caller's to act on.
 */
public final class StorageException extends RuntimeException {

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
