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
        T apply(Connection connection) throws SQLException;
    }

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
