package dev.cairn.storage.query;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * A query that cannot run as written: an unknown entity type, field, operator,
 * relationship, tag or cast, or a value of the wrong shape. The message names the bad item,
 * where it is in the query, and the valid choices. Thrown before any SQL is built.
 */
public final class InvalidQueryException extends InvalidInputException {

    /** A query that cannot run, as {@code message} says. */
    public InvalidQueryException(String message) {
        super(message);
    }

    /** A query that cannot run, as {@code message} says, found by {@code cause}. */
    public InvalidQueryException(String message, Throwable cause) {
        super(message, cause);
    }
}
