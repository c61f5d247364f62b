package dev.cairn.engine.internal.state;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.cairn.engine.process.ProcessState;
import dev.cairn.storage.db.JsonCodec;

/**
 * The {@code process} table. Every change to a process's runtime state happens with its
 * row locked ({@link #lock}), which serialises a step, a child's wake-up and a control
 * action on the same process.
 */
public final class ProcessTable {

    private static final String COLUMNS = "node_id, entry_point, parent_id, state, step, runnable, paused, awaited,"
            + " awaiting, checkpoint::text, use_cache";

    private ProcessTable() {}

    /** The row of a process, locked until the transaction ends; empty when there is none. */
    public static Optional<ProcessRow> lock(Connection c, long processId) throws SQLException {
        return one(c, "SELECT " + COLUMNS + " FROM process WHERE node_id = ? FOR UPDATE", processId);
    }

    private static Optional<ProcessRow> one(Connection c, String sql, long processId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(sql)) {
            s.setLong(1, processId);
            try (ResultSet rs = s.executeQuery()) {
                return rs.next() ? Optional.of(row(rs)) : Optional.empty();
            }
        }
    }

    /** The children a process launched that have not terminated. */
    public static List<Long> liveChildren(Connection c, long processId) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("SELECT node_id FROM process WHERE parent_id = ?"
                + " AND state NOT IN ('finished', 'excepted', 'killed') ORDER BY node_id")) {
            s.setLong(1, processId);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        return ids;
    }

    private static ProcessRow row(ResultSet rs) throws SQLException {
        long parent = rs.getLong(3);
        Long parentId = rs.wasNull() ? null : parent;
        return new ProcessRow(
                rs.getLong(1),
                rs.getString(2),
                parentId,
                ProcessState.fromDbValue(rs.getString(4)),
                rs.getInt(5),
                rs.getBoolean(6),
                rs.getBoolean(7),
                rs.getBoolean(8),
                rs.getInt(9),
                JsonCodec.readObject(rs.getString(10)),
                (Boolean) rs.getObject(11));
    }

    /** New processes, each runnable from step 0. */
    public static void insert(Connection c, List<NewProcess> processes) throws SQLException {
        if (processes.isEmpty()) {
            return;
        }
        try (PreparedStatement s = c.prepareStatement("INSERT INTO process (node_id, entry_point, parent_id, state,"
                + " awaited, use_cache) VALUES (?, ?, ?, 'created', ?, ?)")) {
            for (NewProcess p : processes) {
                s.setLong(1, p.nodeId());
                s.setString(2, p.entryPoint());
                s.setObject(3, p.parentId());
                s.setBoolean(4, p.awaited());
                s.setObject(5, p.useCache());
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    /** A process launched in this transaction. */
    public record NewProcess(long nodeId, String entryPoint, Long parentId, boolean awaited, Boolean useCache) {}

    /** A move written to {@code process_event}: its id and time. */
    record Event(long id, Instant time) {}

    /**
     * Records the end of a step, a move from {@code row}'s state to {@code state}: the next step
     * number, the state, how many children it waits for and its checkpoint, and the move in the
     * table {@code process_event}, in one statement. Returns the event's id and time: the
     * database's clock when the statement ran, the end of the step, not the start of its
     * transaction (which {@code now()} would give). Only {@link ProcessStates} writes a state.
     */
    static Event endStep(
            Connection c, ProcessRow row, ProcessState state, Integer exitStatus, int awaiting, Checkpoint checkpoint)
            throws SQLException {
        try (PreparedStatement s = c.prepareStatement("WITH p AS (UPDATE process SET step = ?, state = ?,"
                + " runnable = false, awaiting = ?, checkpoint = ?::jsonb, job_failures = 0, updated = now()"
                + " WHERE node_id = ? RETURNING node_id, parent_id)"
                + " INSERT INTO process_event (process_id, caller_id, from_state, to_state, exit_status, time)"
                + " SELECT node_id, parent_id, ?, ?, ?, clock_timestamp() FROM p RETURNING id, time")) {
            s.setInt(1, row.step() + 1);
            s.setString(2, state.dbValue());
            s.setInt(3, awaiting);
            s.setString(4, checkpoint.toJson());
            s.setLong(5, row.nodeId());
            s.setString(6, row.state().dbValue());
            s.setString(7, state.dbValue());
            s.setObject(8, exitStatus);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("process " + row.nodeId() + " has no row to end its step in");
                }
                return new Event(
                        rs.getLong(1), rs.getObject(2, OffsetDateTime.class).toInstant());
            }
        }
    }

    /**
     * Tells a waiting parent that one awaited child has terminated, under the parent's row
     * lock. Returns the parent's continue task when this was the last child it waited for
     * and it is not paused; empty otherwise.
     */
    public static Optional<Task> childTerminated(Connection c, long parentId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("UPDATE process SET awaiting = awaiting - 1,"
                + " runnable = runnable OR awaiting = 1, updated = now()"
                + " WHERE node_id = ? AND awaiting > 0 AND state NOT IN ('finished', 'excepted', 'killed')"
                + " RETURNING awaiting, paused, step")) {
            s.setLong(1, parentId);
            try (ResultSet rs = s.executeQuery()) {
                if (rs.next() && rs.getInt(1) == 0 && !rs.getBoolean(2)) {
                    return Optional.of(new Task(parentId, rs.getInt(3)));
                }
                return Optional.empty();
            }
        }
    }

    /**
     * The tasks of live processes that have been due for longer than {@code age} without a task
     * in the outbox, marked as seen now (so the next caller skips them for another {@code age}):
     * tasks lost at the broker, or all of them after a broker that kept its queues in memory restarted.
     */
    public static List<Task> claimDue(Connection c, Duration age) throws SQLException {
        List<Task> due = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("UPDATE process p SET updated = now() WHERE runnable"
                + " AND NOT paused AND state NOT IN ('finished', 'excepted', 'killed')"
                + " AND updated < now() - ? * interval '1 millisecond'"
                + " AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.process_id = p.node_id)"
                + " RETURNING node_id, step")) {
            s.setLong(1, age.toMillis());
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    due.add(new Task(rs.getLong(1), rs.getInt(2)));
                }
            }
        }
        return due;
    }

    /** Counts one more failed attempt of the current step at a transport or scheduler; returns the count. */
    public static int countJobFailure(Connection c, long processId) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("UPDATE process SET job_failures = job_failures + 1, updated = now()"
                        + " WHERE node_id = ? RETURNING job_failures")) {
            s.setLong(1, processId);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    /** Pauses or plays a process; either starts the count of failed attempts again. */
    static void setPaused(Connection c, long processId, boolean paused) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "UPDATE process SET paused = ?, job_failures = 0, updated = now() WHERE node_id = ?")) {
            s.setBoolean(1, paused);
            s.setLong(2, processId);
            s.executeUpdate();
        }
    }

    /** How many process rows are in each state; states with none are left out. */
    public static Map<ProcessState, Long> countByState(Connection c) throws SQLException {
        Map<ProcessState, Long> counts = new EnumMap<>(ProcessState.class);
        try (PreparedStatement s = c.prepareStatement("SELECT state, count(*) FROM process GROUP BY state");
                ResultSet rs = s.executeQuery()) {
            while (rs.next()) {
                counts.put(ProcessState.fromDbValue(rs.getString(1)), rs.getLong(2));
            }
        }
        return counts;
    }
}
