package dev.cairn.storage.db.internal;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Names for the temporary tables that set-based work keeps its id sets in. Unique within the
 * JVM, so that several sets can live on one connection at once; the tables are created
 * {@code ON COMMIT DROP}, which is why their users insist on a transaction.
 */
public final class TempTables {

    private static final AtomicLong NEXT = new AtomicLong();

    private TempTables() {}

    public static String name(String purpose) {
        return "cairn_" + purpose + "_" + NEXT.incrementAndGet();
    }

    public static void requireTransaction(Connection connection, String what) throws SQLException {
        if (connection.getAutoCommit()) {
            throw new IllegalStateException(what + " keeps its ids in temporary tables that live until the end of"
                    + " the transaction: call setAutoCommit(false) on the connection first");
        }
    }
}
