package dev.cairn.storage.graph;

import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * Recognises the constraint a statement violated, through Hibernate's and the pool's
 * wrappers, so that a store can turn it into an error that says what was wrong. Checking
 * the constraint rather than reading first keeps the check race-free.
 */
final class SqlErrors {

    static final String UNIQUE_VIOLATION = "23505";
    static final String FOREIGN_KEY_VIOLATION = "23503";

    private SqlErrors() {
    }

    /** True when {@code failure} (or a cause) is PostgreSQL refusing a row because of {@code constraint}. */
    static boolean violated(Throwable failure, String constraint) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof PSQLException e) {
                ServerErrorMessage server = e.getServerErrorMessage();
                if (server != null && constraint.equals(server.getConstraint()))
                    return true;
            }
        }
        return false;
    }
}
