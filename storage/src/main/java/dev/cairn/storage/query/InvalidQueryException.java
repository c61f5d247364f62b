package dev.cairn.storage.query;

import java.sql.SQLException;
import java.util.Optional;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.SqlErrors;

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

    /**
     * The query's fault when the database refused one of its values as the query used it (class 22: a
     * text compared as a number, a bad cast, a NUL), said in the first line of the database's message.
     */
    static Optional<InvalidQueryException> refusedValue(SQLException e) {
        return SqlErrors.refusedValue(e)
                .map(reason -> new InvalidQueryException("the database refused a value of the query: " + reason, e));
    }
}
