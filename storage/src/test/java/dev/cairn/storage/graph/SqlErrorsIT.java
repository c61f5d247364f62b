package dev.cairn.storage.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.testing.TestDatabase;

/**
 * What PostgreSQL really says when a session is ended under it, as when a primary fails over or
 * restarts, is taken for a connection failure; a refused statement is not.
 */
class SqlErrorsIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @Test
    void aSessionTheServerEndedIsAConnectionFailure() throws SQLException {
        try (Connection victim = db.connect();
                Connection admin = db.connect()) {
            int pid;
            try (Statement s = victim.createStatement();
                    ResultSet r = s.executeQuery("SELECT pg_backend_pid()")) {
                r.next();
                pid = r.getInt(1);
            }
            try (Statement s = admin.createStatement()) {
                s.execute("SELECT pg_terminate_backend(" + pid + ")");
            }
            SQLException ended = assertThrows(SQLException.class, () -> {
                try (Statement s = victim.createStatement()) {
                    s.execute("SELECT 1");
                }
            });
            assertTrue(
                    SqlErrors.causedByConnectionFailure(new IllegalStateException("a step", ended)),
                    ended.getSQLState() + ": " + ended.getMessage());
        }
    }

    @Test
    void aRefusedStatementIsNot() throws SQLException {
        try (Connection c = db.connect();
                Statement s = c.createStatement()) {
            SQLException refused = assertThrows(SQLException.class, () -> s.execute("SELECT 1/0"));
            assertEquals("22012", refused.getSQLState());
            assertFalse(SqlErrors.causedByConnectionFailure(refused));
        }
    }
}
