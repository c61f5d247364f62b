package dev.cairn.storage.errors;

/**
 * A service Cairn needs could not be reached or failed on its side: the database, the broker, a
 * computer's transport or scheduler. Nothing the caller sent was wrong; the same request may
 * succeed when the service is back, so it is worth retrying.
 */
public non-sealed class UnavailableException extends CairnException {

    /** A service Cairn needs did not answer, as {@code message} says. */
    public UnavailableException(String message) {
        super(message);
    }

    /** A service Cairn needs did not answer, as {@code message} says; {@code cause} is its error. */
    public UnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
