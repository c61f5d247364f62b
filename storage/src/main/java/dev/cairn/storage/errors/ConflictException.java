package dev.cairn.storage.errors;

/** The request is well formed but clashes with what is stored: a taken name, a rule of provenance. */
public non-sealed class ConflictException extends CairnException {

    public ConflictException(String message) {
        super(message);
    }

    public ConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
