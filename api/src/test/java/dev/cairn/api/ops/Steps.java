package dev.cairn.api.ops;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

import dev.cairn.storage.testing.TestDatabase;

/** What the tests see of a process's steps, read straight from the test database. */
final class Steps {

    private Steps() {}

    /**
     * Waits until a step of the process runs: a step holds the process row's lock from its start to
     * its commit, so the row cannot be locked without waiting while one runs.
     */
    static void awaitRunning(TestDatabase db, long processId, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            try (Connection c = db.connect()) {
                c.setAutoCommit(false);
                try (PreparedStatement s =
                        c.prepareStatement("SELECT 1 FROM process WHERE node_id = ? FOR UPDATE NOWAIT")) {
                    s.setLong(1, processId);
                    s.executeQuery().close();
                } catch (SQLException e) {
                    if ("55P03".equals(e.getSQLState())) {
                        return; // lock_not_available: a step holds it
                    }
                    throw e;
                } finally {
                    c.rollback();
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no step of process " + processId + " ran within " + timeout);
            }
            Thread.sleep(10);
        }
    }

    /** The process's state as its row has it. */
    static String state(TestDatabase db, long processId) throws SQLException {
        try (Connection c = db.connect();
                PreparedStatement s = c.prepareStatement("SELECT state FROM process WHERE node_id = ?")) {
            s.setLong(1, processId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    static void awaitState(TestDatabase db, long processId, String state, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!state.equals(state(db, processId))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("process " + processId + " is " + state(db, processId) + ", not " + state
                        + ", after " + timeout);
            }
            Thread.sleep(50);
        }
    }

    static long count(TestDatabase db, String sql, Object... args) throws SQLException {
        try (Connection c = db.connect();
                PreparedStatement s = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                s.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
