package dev.cairn.storage.errors;

/** The request names something that does not exist. */
public non-sealed class NotFoundException extends CairnException {

    public NotFoundException(String message) {
        super(message);
    }

    public NotFoundException(String message, Throwable cause) {
        super(message, cause);
    }
}
