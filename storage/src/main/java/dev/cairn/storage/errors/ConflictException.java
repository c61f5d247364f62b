package dev.cairn.storage.errors;

/** The request is well formed but clashes with what is stored: a taken name, a rule of provenance. */
public non-sealed class ConflictException extends CairnException {

    /** A conflict with what is stored, said by {@code message}. */
    public ConflictException(String message) {
        super(message);
    }

    /** A conflict with what is stored, caused by {@code cause}. */
    public ConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
