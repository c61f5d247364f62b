package dev.cairn.engine.transport;

import dev.cairn.storage.errors.UnavailableException;

/**
 * A transport operation failed: the computer could not be reached or refused the operation.
 * {@code transient} failures (a dropped connection, a timeout) may work when tried again with
 * backoff; others (no such file, permission denied) will not until someone acts on the computer.
 */
public final class TransportException extends UnavailableException {

    private final boolean transientFailure;

    public TransportException(String message, boolean transientFailure, Throwable cause) {
        super(message, cause);
        this.transientFailure = transientFailure;
    }

    public boolean isTransient() {
        return transientFailure;
    }
}
