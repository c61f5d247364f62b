package dev.cairn.storage.errors;

/**
 * An error of Cairn's that a caller can act on, in one of four closed families: the thing named
 * does not exist ({@link NotFoundException}), the request is malformed ({@link InvalidInputException}),
 * it clashes with what is stored ({@link ConflictException}), or a service Cairn needs could not be
 * reached and the request may be tried again ({@link UnavailableException}). Every public exception
 * of storage and engine belongs to one family, so the server maps them to HTTP statuses with one
 * exhaustive switch. The object store keeps its own sealed exceptions: it depends on nothing of Cairn.
 */
public abstract sealed class CairnException extends RuntimeException
        permits NotFoundException, InvalidInputException, ConflictException, UnavailableException {

    protected CairnException(String message) {
        super(message);
    }

    protected CairnException(String message, Throwable cause) {
        super(message, cause);
    }
}
