package dev.cairn.storage.graph;

/**
 * A request that Cairn refuses for a reason the caller can act on. The families are closed so
 * that the REST layer maps each to one status with an exhaustive switch.
 */
public abstract sealed class CairnException extends RuntimeException
        permits NotFoundException, InvalidInputException, ConflictException {

    protected CairnException(String message) {
        super(message);
    }

    protected CairnException(String message, Throwable cause) {
        super(message, cause);
    }
}
