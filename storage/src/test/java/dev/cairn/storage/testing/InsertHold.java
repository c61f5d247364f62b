package dev.cairn.storage.testing;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Holds the database session that inserts into a table at its insert, until the test lets it go
 * or ends it: a trigger on the table's rows waits for an advisory lock this holds. Ending the
 * held session with {@code pg_terminate_backend} ({@link #cut}) loses its transaction with the most
 * written and nothing committed, as a failover, a server restarting or a process killed before
 * its commit would. The trigger fires in the replica role too, which bulk writes (archive
 * imports) use.
 */
public final class InsertHold implements AutoCloseable {

    /** Advisory-lock keys of holds: this prefix, and the table's name hashed. */
    private static final long LOCK_SPACE = 0x686f6c64L << 32;

    private final Connection holder;
    private final String table;
    private final long lock;

    private InsertHold(Connection holder, String table, long lock) {
        this.holder = holder;
        this.table = table;
        this.lock = lock;
    }

    /** Installs the trigger on {@code table} and holds the lock it waits on. */
    public static InsertHold on(TestDatabase db, String table) throws SQLException {
        if (!table.matches("[a-z_]+")) {
            throw new IllegalArgumentException("not a table name: " + table);
        }
        long lock = LOCK_SPACE | (table.hashCode() & 0xffff_ffffL);
        Connection c = db.connect();
        try (Statement s = c.createStatement()) {
            s.execute("CREATE OR REPLACE FUNCTION test_hold_" + table + "() RETURNS trigger LANGUAGE plpgsql AS"
                    + " $$ BEGIN PERFORM pg_advisory_xact_lock_shared(" + lock + "); RETURN NEW; END $$");
            s.execute("CREATE OR REPLACE TRIGGER test_hold_" + table + " BEFORE INSERT ON " + table
                    + " FOR EACH ROW EXECUTE FUNCTION test_hold_" + table + "()");
            s.execute("ALTER TABLE " + table + " ENABLE ALWAYS TRIGGER test_hold_" + table);
            s.execute("SELECT pg_advisory_lock(" + lock + ")");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return new InsertHold(c, table, lock);
    }

    /** The pid of the session held at the insert, once there is one; fails after {@code timeout}. */
    public int awaitHeld(Duration timeout, String what) throws InterruptedException {
        return awaitHeld(timeout, what, () -> false);
    }

    /**
     * The pid of the session held at the insert, once there is one; fails after {@code timeout}, or
     * as soon as {@code ended} says the work that was to insert ended without doing so.
     */
    public int awaitHeld(Duration timeout, String what, BooleanSupplier ended) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            int pid = heldSession();
            if (pid != 0) {
                return pid;
            }
            if (ended.getAsBoolean()) {
                throw new AssertionError(what + ": it ended before it inserted into " + table);
            }
            Thread.sleep(20);
        }
        throw new AssertionError(what + ": not held at its insert into " + table + " within " + timeout);
    }

    /** Ends the held session (its transaction is lost) and lets the next insert through. */
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

    private int heldSession() {
        try (PreparedStatement s = holder.prepareStatement("SELECT pid FROM pg_locks WHERE locktype = 'advisory'"
                + " AND NOT granted AND classid::bigint = ? AND objid::bigint = ? AND database = (SELECT oid"
                + " FROM pg_database WHERE datname = current_database())")) {
            s.setLong(1, lock >>> 32);
            s.setLong(2, lock & 0xffff_ffffL);
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

    /** Lets every insert through and drops the trigger. */
    @Override
    public void close() throws SQLException {
        try (holder;
                Statement s = holder.createStatement()) {
            // the lock first: a session held at the trigger keeps the table from being altered
            s.execute("SELECT pg_advisory_unlock_all()");
            s.execute("DROP TRIGGER IF EXISTS test_hold_" + table + " ON " + table);
        }
    }
}
