package dev.cairn.engine.transport;

/**
 * A transport operation failed. {@code transient} failures (a dropped connection, a
 * timeout) may work when tried again with backoff; others (no such file, permission denied)
 * will not.
 */
public final class TransportException extends RuntimeException {

    private final boolean transientFailure;

    public TransportException(String message, boolean transientFailure, Throwable cause) {
        super(message, cause);
        this.transientFailure = transientFailure;
    }

    public boolean isTransient() {
        return transientFailure;
    }
}
