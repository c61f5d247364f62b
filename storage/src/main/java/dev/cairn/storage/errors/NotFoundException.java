package dev.cairn.storage.errors;

/** The request names something that does not exist. */
public non-sealed class NotFoundException extends CairnException {

    /** What was asked for does not exist, as {@code message} says. */
    public NotFoundException(String message) {
        super(message);
    }

    /** What was asked for does not exist, as {@code message} says; found by {@code cause}. */
    public NotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
