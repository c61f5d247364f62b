package dev.cairn.storage.errors;

/** The request is malformed: a value out of range, an unknown name, a missing field. */
public non-sealed class InvalidInputException extends CairnException {

    public InvalidInputException(String message) {
        super(message);
    }

    public InvalidInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
