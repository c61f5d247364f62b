package dev.cairn.storage.query;

/** A valid query that the database could not run or finish, with the database's reason. */
public final class QueryFailedException extends RuntimeException {

    public QueryFailedException(String message, Throwable cause) {
        super(message, cause);
    }

    public QueryFailedException(String message) {
        super(message);
    }
}
