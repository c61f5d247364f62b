package dev.cairn.storage.db;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Runs JDBC work in one transaction on a pooled connection: commit on success, rollback on any
 * failure. The one place that begins, commits and rolls back transactions; work may roll back
 * part of itself ({@link Connection#rollback()}) and go on in the same transaction.
 */
public final class Transactions {

    private Transactions() {}

    public interface Work<T> {
        /** Does the work on {@code connection}, inside the transaction; returns its result. */
        T apply(Connection connection) throws SQLException;
    }

    /**
     * Runs {@code work} in one transaction on a connection of its own: commits when it returns, rolls back when it
     * throws (and throws on).
     *
     * @throws SQLException if the database fails; then nothing is committed
     */
    public static <T> T run(Database database, Work<T> work) throws SQLException {
        try (Connection connection = database.connection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.apply(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException | Error e) {
                try {
                    connection.rollback();
                } catch (SQLException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        }
    }
}
