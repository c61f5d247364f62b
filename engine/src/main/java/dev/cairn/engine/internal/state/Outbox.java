package dev.cairn.engine.internal.state;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Transactions;

/**
 * Task messages a transaction decided to send, written in that same transaction, so a
 * worker that dies between commit and publish loses none: whoever publishes deletes the
 * rows, and {@link #claimStale} hands rows left behind to a relay.
 */
public final class Outbox {

    private Outbox() {}

    /** Writes the tasks; returns their row ids, in order. */
    public static List<Long> add(Connection c, List<Task> tasks) throws SQLException {
        List<Long> ids = new ArrayList<>(tasks.size());
        if (tasks.isEmpty()) {
            return ids;
        }
        try (PreparedStatement s = c.prepareStatement("INSERT INTO outbox (process_id, step) SELECT * FROM"
                + " unnest(?::bigint[], ?::int[]) RETURNING id")) {
            Long[] processes = new Long[tasks.size()];
            Integer[] steps = new Integer[tasks.size()];
            for (int i = 0; i < tasks.size(); i++) {
                processes[i] = tasks.get(i).processId();
                steps[i] = tasks.get(i).step();
            }
            s.setArray(1, c.createArrayOf("bigint", processes));
            s.setArray(2, c.createArrayOf("integer", steps));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
        }
        return ids;
    }

    /**
     * Writes a task that nobody sends before {@code delay} has passed; the outbox relay sends
     * it then (a retry after backoff holds no worker slot while it waits).
     */
    public static void addDelayed(Connection c, Task task, Duration delay) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO outbox (process_id, step, due)"
                + " VALUES (?, ?, clock_timestamp() + ? * interval '1 millisecond')")) {
            s.setLong(1, task.processId());
            s.setInt(2, task.step());
            s.setLong(3, delay.toMillis());
            s.executeUpdate();
        }
    }

    /** Deletes published rows. */
    public static void remove(Connection c, Collection<Long> ids) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (PreparedStatement s = c.prepareStatement("DELETE FROM outbox WHERE id = ANY(?)")) {
            s.setArray(1, c.createArrayOf("bigint", ids.toArray()));
            s.executeUpdate();
        }
    }

    /**
     * Deletes published rows in a transaction of their own that does not wait for the disk:
     * losing the delete only means the relay sends the tasks again, which is harmless.
     */
    public static void forget(Database database, List<Long> ids) {
        if (ids.isEmpty()) {
            return;
        }
        try {
            Transactions.run(database, c -> {
                try (var s = c.createStatement()) {
                    s.execute("SET LOCAL synchronous_commit = off");
                }
                remove(c, ids);
                return null;
            });
        } catch (SQLException ignored) {
            // see above
        }
    }

    /**
     * Deletes and returns rows older than {@code age} and delayed rows now due, locked so two relays never take the
     * same ones; the caller publishes them before committing, and a relay that fails
     * rolls back and leaves them for the next.
     */
    public static List<Task> claimStale(Connection c, Duration age, int limit) throws SQLException {
        List<Task> tasks = new ArrayList<>();
        try (PreparedStatement s = c.prepareStatement("DELETE FROM outbox WHERE id IN (SELECT id FROM outbox"
                + " WHERE CASE WHEN due IS NULL THEN created < now() - ? * interval '1 millisecond' ELSE due <= now() END"
                + " ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED)"
                + " RETURNING process_id, step")) {
            s.setLong(1, age.toMillis());
            s.setInt(2, limit);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    tasks.add(new Task(rs.getLong(1), rs.getInt(2)));
                }
            }
        }
        return tasks;
    }

    /** Rows not yet published and delayed rows not yet due: what the relays still have to send. */
    public static long count(Connection c) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM outbox");
                ResultSet rs = s.executeQuery()) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
