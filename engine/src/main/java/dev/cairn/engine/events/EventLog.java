package dev.cairn.engine.events;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.StorageException;

/**
 * The table {@code process_event}, where the engine writes every state change in the
 * transaction that makes it: what event streams replay and fill gaps from, since broadcasts are
 * not durable ({@code Engine.eventLog()} gives the engine's). Ids are given when
 * a step writes its change, not when it commits, so a lower id can commit after a higher one;
 * {@link #awaitWriters} waits for the transactions that may still be holding such an id.
 */
public final class EventLog {

    /** One stored state change, with the uuids a client knows processes by. */
    public record Row(
            long id,
            long processId,
            UUID process,
            Long callerId,
            UUID caller,
            String entryPoint,
            String from,
            String to,
            Integer exitStatus,
            OffsetDateTime time,
            StateChanged.SchedulerMove scheduler) {}

    private static final String SELECT = "SELECT e.id, e.process_id, n.uuid, e.caller_id, c.uuid, n.process_type,"
            + " e.from_state, e.to_state, e.exit_status, e.time, e.scheduler_from, e.scheduler_to FROM process_event e JOIN node n ON n.id = e.process_id"
            + " LEFT JOIN node c ON c.id = e.caller_id";

    /**
     * The transactions that have written to {@code process_event} and not ended, by virtual
     * transaction id: a row lock on the table is taken before an id is drawn and held until
     * commit. (Pruning and node deletions take it too; they only make a wait longer.)
     */
    private static final String INSERTING = "SELECT virtualtransaction FROM pg_locks WHERE locktype = 'relation'"
            + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
            + " AND relation = 'process_event'::regclass AND mode = 'RowExclusiveLock' AND pid <> pg_backend_pid()";

    private final Database database;

    public EventLog(Database database) {
        this.database = database;
    }

    /** The highest id committed so far; 0 for none. */
    public long maxId() {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("SELECT coalesce(max(id), 0) FROM process_event");
                ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new StorageException("reading the last process event", e);
        }
    }

    /** Committed changes with {@code after < id <= upTo}, in id order, at most {@code limit}. */
    public List<Row> between(long after, long upTo, int limit) {
        return rows(SELECT + " WHERE e.id > ? AND e.id <= ? ORDER BY e.id LIMIT ?", s -> {
            s.setLong(1, after);
            s.setLong(2, upTo);
            s.setInt(3, limit);
        });
    }

    /** Changes of the processes {@code ids} with {@code after < id <= upTo}, in id order, at most {@code limit}. */
    public List<Row> ofProcesses(Collection<Long> ids, long after, long upTo, int limit) {
        return rows(
                SELECT + " WHERE e.process_id = ANY(?) AND e.id > ? AND e.id <= ? ORDER BY e.id LIMIT ?", (c, s) -> {
                    Array array = c.createArrayOf("bigint", ids.toArray());
                    s.setArray(1, array);
                    s.setLong(2, after);
                    s.setLong(3, upTo);
                    s.setInt(4, limit);
                });
    }

    /** The process and every process it called, directly or not, by the engine's process rows. */
    public Set<Long> tree(long root) {
        Set<Long> ids = new HashSet<>();
        ids.add(root);
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("WITH RECURSIVE tree(id) AS (SELECT ?::bigint UNION"
                        + " SELECT p.node_id FROM process p JOIN tree t ON p.parent_id = t.id) SELECT id FROM tree")) {
            s.setLong(1, root);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        } catch (SQLException e) {
            throw new StorageException("reading the call tree of process " + root, e);
        }
        return ids;
    }

    /** The uuid of a node, or null when there is none. */
    public UUID uuid(long nodeId) {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("SELECT uuid FROM node WHERE id = ?")) {
            s.setLong(1, nodeId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? rs.getObject(1, UUID.class) : null;
            }
        } catch (SQLException e) {
            throw new StorageException("reading the uuid of node " + nodeId, e);
        }
    }

    /** The transactions now holding ids of {@code process_event} they may not have committed. */
    private Set<String> inserting() {
        Set<String> holders = new HashSet<>();
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(INSERTING);
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                holders.add(rs.getString(1));
            }
        } catch (SQLException e) {
            throw new StorageException("reading the writers of process events", e);
        }
        return holders;
    }

    /** Whether any of {@code holders} (from {@link #inserting()}) has not ended yet. */
    private boolean stillInserting(Set<String> holders) {
        if (holders.isEmpty()) {
            return false;
        }
        try (Connection c = database.connection();
                PreparedStatement s =
                        c.prepareStatement("SELECT EXISTS (" + INSERTING + " AND virtualtransaction = ANY(?))")) {
            s.setArray(1, c.createArrayOf("text", holders.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        } catch (SQLException e) {
            throw new StorageException("reading the writers of process events", e);
        }
    }

    /**
     * Waits until the transactions now writing to {@code process_event} have ended (their ids are then
     * committed or never will be), at most {@code wait}; true when they ended in time. Polls, at most
     * every 20 ms: PostgreSQL tells no one when a transaction ends.
     */
    public boolean awaitWriters(Duration wait) throws InterruptedException {
        Set<String> writers = inserting();
        long deadline = System.nanoTime() + wait.toNanos();
        long pause = 1;
        while (stillInserting(writers)) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(pause);
            pause = Math.min(pause * 2, 20);
        }
        return true;
    }

    /**
     * Deletes the changes older than {@code retention}, {@code batch} rows per statement so that
     * no statement holds the table long; returns how many.
     */
    public long prune(Duration retention, int batch) {
        long deleted = 0;
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("DELETE FROM process_event WHERE id IN (SELECT id FROM"
                        + " process_event WHERE time < now() - ? * interval '1 millisecond' ORDER BY id LIMIT ?)")) {
            int n;
            do {
                s.setLong(1, retention.toMillis());
                s.setInt(2, batch);
                n = s.executeUpdate();
                deleted += n;
            } while (n == batch);
        } catch (SQLException e) {
            throw new StorageException("deleting process events older than " + retention, e);
        }
        return deleted;
    }

    @FunctionalInterface
    private interface Binder {
        void bind(Connection c, PreparedStatement s) throws SQLException;
    }

    @FunctionalInterface
    private interface SimpleBinder {
        void bind(PreparedStatement s) throws SQLException;
    }

    private List<Row> rows(String sql, SimpleBinder binder) {
        return rows(sql, (c, s) -> binder.bind(s));
    }

    private List<Row> rows(String sql, Binder binder) {
        List<Row> rows = new ArrayList<>();
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(sql)) {
            binder.bind(c, s);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    long caller = rs.getLong(4);
                    Long callerId = rs.wasNull() ? null : caller;
                    int exit = rs.getInt(9);
                    Integer exitStatus = rs.wasNull() ? null : exit;
                    rows.add(new Row(
                            rs.getLong(1),
                            rs.getLong(2),
                            rs.getObject(3, UUID.class),
                            callerId,
                            rs.getObject(5, UUID.class),
                            rs.getString(6),
                            rs.getString(7),
                            rs.getString(8),
                            exitStatus,
                            rs.getObject(10, OffsetDateTime.class),
                            rs.getString(12) == null
                                    ? null
                                    : new StateChanged.SchedulerMove(rs.getString(11), rs.getString(12))));
                }
            }
        } catch (SQLException e) {
            throw new StorageException("reading process events", e);
        }
        return rows;
    }
}
