package dev.cairn.storage.errors;

/** The request is malformed: a value out of range, an unknown name, a missing field. */
public non-sealed class InvalidInputException extends CairnException {

    /** Input that is not valid, as {@code message} says. */
    public InvalidInputException(String message) {
        super(message);
    }

    /** Input that is not valid, as {@code message} says, found by {@code cause}. */
    public InvalidInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
