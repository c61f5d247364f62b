package dev.cairn.engine.internal.calcjob;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

import dev.cairn.engine.transport.ConnectionPermit;
import dev.cairn.engine.transport.TransportException;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.StorageException;

/**
 * The numbered connection slots of computers with {@code max_connections} that one engine holds,
 * shared with every engine on every host through PostgreSQL. A slot is a session-level advisory
 * lock on a database connection of this engine's own, taken with the transport it permits and
 * released when the transport closes, however long it was kept idle: so the limit counts the
 * connections a login node sees. The connection is held only while the engine holds a slot or
 * waits for one; an engine that dies ends its session, and with it its slots.
 * <p>
 * An engine waiting for a slot says so with a shared lock on the computer's key of its own;
 * others see it in {@code pg_locks} and close the idle connections that hold slots of that
 * computer, so a slot kept for one engine's next operation goes to the engine that needs it.
 */
final class ConnectionSlots {

    /** Advisory-lock keys of connection slots: this prefix, the computer id, the slot number. */
    private static final long SLOT_SPACE = 0x636fL << 48;
    /** Advisory-lock keys that say an engine waits for a slot of a computer: this prefix, the computer id. */
    private static final long WAIT_SPACE = 0x6377L << 48;

    private static final String WAITED_FOR = """
            SELECT EXISTS (SELECT 1 FROM pg_locks
                           WHERE locktype = 'advisory' AND classid::bigint = ? AND objid::bigint = ?
                             AND objsubid = 1 AND pid <> pg_backend_pid())""";

    private final Database database;
    private final Set<Long> held = new HashSet<>();
    private Connection session;
    /** Counts the sessions taken, so a permit of a lost session knows its lock went with it. */
    private long sessionNumber;

    private int waiting;

    ConnectionSlots(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * Takes a free slot of the computer, waiting for one up to {@code wait}.
     *
     * @throws TransportException (transient) when every slot stayed taken that long
     * @throws StorageException   when the database could not be asked
     */
    ConnectionPermit take(long computerId, String computerLabel, int slots, Duration wait) {
        long deadline = System.nanoTime() + wait.toNanos();
        long pause = 20;
        Long saidOn = null; // the session the wait was said on (-1: it could not be said); null: not yet
        try {
            while (true) {
                ConnectionPermit permit = tryTake(computerId, slots);
                if (permit != null) {
                    return permit;
                }
                if (saidOn == null) {
                    saidOn = beginWaiting(computerId);
                }
                if (System.nanoTime() > deadline) {
                    throw new TransportException(
                            "all " + slots + " connections allowed to " + computerLabel
                                    + " (max_connections) stayed in use for " + wait.toSeconds() + " s",
                            true,
                            null);
                }
                sleep(ThreadLocalRandom.current().nextLong(pause / 2, pause + 1));
                // short pauses: a slot freed for us by another engine's closer comes within a second
                pause = Math.min(250, pause * 2);
            }
        } catch (SQLException e) {
            throw new StorageException("taking a connection slot of computer " + computerLabel, e);
        } finally {
            if (saidOn != null) {
                endWaiting(computerId, saidOn);
            }
        }
    }

    private synchronized ConnectionPermit tryTake(long computerId, int slots) throws SQLException {
        Connection c = session();
        // start at a random slot, so that waiting engines do not all race for slot 0
        int first = ThreadLocalRandom.current().nextInt(slots);
        try (PreparedStatement lock = c.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
            for (int i = 0; i < slots; i++) {
                long key = SLOT_SPACE | (computerId << 8) | ((first + i) % slots);
                // a session's advisory locks stack: taking one it holds would succeed
                if (held.contains(key)) {
                    continue;
                }
                lock.setLong(1, key);
                try (ResultSet rs = lock.executeQuery()) {
                    rs.next();
                    if (rs.getBoolean(1)) {
                        held.add(key);
                        return new Slot(computerId, key, sessionNumber);
                    }
                }
            }
        } catch (SQLException e) {
            lose();
            throw e;
        }
        returnSessionIfUnused();
        return null;
    }

    /** Says this engine waits for a slot of the computer; the session number it was said on, or -1. */
    private synchronized long beginWaiting(long computerId) {
        try (PreparedStatement s = session().prepareStatement("SELECT pg_advisory_lock_shared(?)")) {
            s.setLong(1, WAIT_SPACE | computerId);
            s.executeQuery().close();
            waiting++;
            return sessionNumber;
        } catch (SQLException e) {
            // waiting goes on without the word out
            lose();
            return -1;
        }
    }

    private synchronized void endWaiting(long computerId, long saidOn) {
        if (saidOn != sessionNumber) {
            return; // the session it was said on is gone, and the word with it
        }
        waiting--;
        try (PreparedStatement s = session.prepareStatement("SELECT pg_advisory_unlock_shared(?)")) {
            s.setLong(1, WAIT_SPACE | computerId);
            s.executeQuery().close();
        } catch (SQLException e) {
            lose();
        }
        returnSessionIfUnused();
    }

    private synchronized void release(Slot slot) {
        if (slot.released) {
            return;
        }
        slot.released = true;
        if (slot.sessionNumber != sessionNumber || !held.remove(slot.key)) {
            return;
        }
        try (PreparedStatement s = session.prepareStatement("SELECT pg_advisory_unlock(?)")) {
            s.setLong(1, slot.key);
            s.executeQuery().close();
        } catch (SQLException e) {
            lose();
        }
        returnSessionIfUnused();
    }

    private synchronized boolean waitedFor(Slot slot) {
        if (slot.released || slot.sessionNumber != sessionNumber || !held.contains(slot.key)) {
            return true;
        }
        long key = WAIT_SPACE | slot.computerId;
        try (PreparedStatement s = session.prepareStatement(WAITED_FOR)) {
            s.setLong(1, key >>> 32);
            s.setLong(2, key & 0xffff_ffffL);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        } catch (SQLException e) {
            // not sure the slot is still ours: the idle connection goes
            lose();
            return true;
        }
    }

    private Connection session() throws SQLException {
        if (session == null) {
            session = database.connection();
            session.setAutoCommit(true);
        }
        return session;
    }

    /**
     * The session failed: its slots are given up (a broken session's locks went with it; a
     * session still alive has them unlocked before it goes back to the pool).
     */
    private void lose() {
        held.clear();
        waiting = 0;
        sessionNumber++;
        if (session != null) {
            try (Connection c = session;
                    PreparedStatement s = c.prepareStatement("SELECT pg_advisory_unlock_all()")) {
                s.executeQuery().close();
            } catch (SQLException ignored) {
                // broken: the pool drops it, and the server ends its locks with it
            }
            session = null;
        }
    }

    private void returnSessionIfUnused() {
        if (session != null && held.isEmpty() && waiting == 0) {
            try {
                session.close();
            } catch (SQLException ignored) {
                // the pool drops a connection it cannot take back
            }
            session = null;
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportException("interrupted while waiting for a connection slot", false, e);
        }
    }

    /** One slot held, by the session it was taken on; guarded by the outer instance. */
    private final class Slot implements ConnectionPermit {
        private final long computerId;
        private final long key;
        private final long sessionNumber;
        private boolean released;

        Slot(long computerId, long key, long sessionNumber) {
            this.computerId = computerId;
            this.key = key;
            this.sessionNumber = sessionNumber;
        }

        @Override
        public void release() {
            ConnectionSlots.this.release(this);
        }

        @Override
        public boolean wanted() {
            return waitedFor(this);
        }
    }
}
