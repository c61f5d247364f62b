package dev.cairn.storage.query;

import dev.cairn.storage.errors.UnavailableException;

/**
 * A valid query that the database could not run or finish (a lost connection, a cancelled or
 * timed-out statement), with the database's reason.
 */
final class QueryFailedException extends UnavailableException {

    public QueryFailedException(String message, Throwable cause) {
        super(message, cause);
    }

    public QueryFailedException(String message) {
        super(message);
    }
}
