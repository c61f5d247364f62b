package dev.cairn.engine.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import dev.cairn.storage.testing.TestDatabase;

/**
 * Makes a calculation job's submit step lose its transaction after it submitted, as a database
 * failover or a worker killed before its commit would: a trigger holds the step at its
 * {@code job_watch} row (the last thing it writes) while this holds an advisory lock; {@link #cut}
 * then ends the step's database session with {@code pg_terminate_backend} and lets the step's next
 * attempt through. Between the two, the test lets the job run, end, or be lost.
 */
public final class LostCommit implements AutoCloseable {

    private static final long LOCK = 0x6a6f62L;

    private final Connection holder;

    private LostCommit(Connection holder) {
        this.holder = holder;
    }

    /** Installs the trigger (once per database) and holds the lock it waits on. */
    public static LostCommit hold(TestDatabase db) throws SQLException {
        Connection c = db.connect();
        try (Statement s = c.createStatement()) {
            s.execute("CREATE OR REPLACE FUNCTION test_hold_job_watch() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN PERFORM pg_advisory_xact_lock_shared(" + LOCK + "); RETURN NEW; END $$");
            s.execute("CREATE OR REPLACE TRIGGER test_hold_job_watch BEFORE INSERT ON job_watch"
                    + " FOR EACH ROW EXECUTE FUNCTION test_hold_job_watch()");
            s.execute("SELECT pg_advisory_lock(" + LOCK + ")");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return new LostCommit(c);
    }

    /** Waits until a step has submitted its job and waits at the trigger; returns its session's pid. */
    public int awaitHeldStep(Duration timeout) throws Exception {
        int[] pid = {0};
        Waits.until(timeout, "a submit step held before its commit", () -> (pid[0] = heldStep()) != 0);
        return pid[0];
    }

    /** Ends the held step's session (its transaction is lost) and lets the next attempt commit. */
    public void cut(int pid) throws SQLException {
        try (PreparedStatement s = holder.prepareStatement("SELECT pg_terminate_backend(?)")) {
            s.setInt(1, pid);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                if (!rs.getBoolean(1)) {
                    throw new AssertionError("session " + pid + " could not be ended");
                }
            }
        }
        release();
    }

    private int heldStep() {
        try (PreparedStatement s = holder.prepareStatement("SELECT pid FROM pg_locks WHERE locktype = 'advisory'"
                + " AND NOT granted AND objid = ? AND database = (SELECT oid FROM pg_database"
                + " WHERE datname = current_database())")) {
            s.setLong(1, LOCK);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void release() throws SQLException {
        try (Statement s = holder.createStatement()) {
            s.execute("SELECT pg_advisory_unlock_all()");
        }
    }

    /** Lets every step through and drops the trigger. */
    @Override
    public void close() throws SQLException {
        try (holder;
                Statement s = holder.createStatement()) {
            // the lock first: a step held at the trigger keeps job_watch from being altered
            s.execute("SELECT pg_advisory_unlock_all()");
            s.execute("DROP TRIGGER IF EXISTS test_hold_job_watch ON job_watch");
        }
    }
}
