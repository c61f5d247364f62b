package dev.cairn.storage.db;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** Whole-database administration on a server, through a connection to another of its databases. */
public final class Databases {

    /** SQLSTATE insufficient_privilege: what the role may not do (here, end another role's process). */
    public static final String INSUFFICIENT_PRIVILEGE = "42501";

    private static final int ATTEMPTS = 300;
    private static final long PAUSE_MS = 100;

    private Databases() {}

    /**
     * Drops database {@code name} if it exists, closing the connections still open on it. A server
     * process of another role on it (an autovacuum worker, say) cannot be closed by this role, and
     * makes the forced drop fail: then a plain drop is tried, which ends autovacuum workers itself, and
     * the whole is tried again, for up to 30 s, until the other process has gone.
     */
    public static void drop(Connection admin, String name) throws SQLException {
        String plain = "DROP DATABASE IF EXISTS \"" + name.replace("\"", "\"\"") + "\"";
        try (Statement statement = admin.createStatement()) {
            for (int attempt = 1; ; attempt++) {
                try {
                    statement.execute(plain + " WITH (FORCE)");
                    return;
                } catch (SQLException e) {
                    if (!INSUFFICIENT_PRIVILEGE.equals(e.getSQLState())) {
                        throw e;
                    }
                    try {
                        statement.execute(plain);
                        return;
                    } catch (SQLException inUse) {
                        if (attempt >= ATTEMPTS) {
                            e.addSuppressed(inUse);
                            throw e;
                        }
                    }
                    try {
                        Thread.sleep(PAUSE_MS);
                    } catch (InterruptedException interrupted) {
                        Thread.currentThread().interrupt();
                        throw e;
                    }
                }
            }
        }
    }
}
