package dev.cairn.engine.internal.calcjob;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.function.IntFunction;

/**
 * The row of table {@code computer_activity} that all workers share about one computer:
 * when its scheduler may be polled again, how many polls in a row failed, and the token
 * bucket that spaces its job submissions. Times come from the database's clock, so hosts
 * whose clocks disagree still agree on it.
 */
final class ComputerActivity {

    private ComputerActivity() {}

    /** True when the computer's scheduler may be asked now; the caller holds the computer's poll lock. */
    static boolean pollDue(Connection c, long computerId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "SELECT next_poll <= clock_timestamp() FROM computer_activity WHERE computer_id = ?")) {
            s.setLong(1, computerId);
            try (ResultSet rs = s.executeQuery()) {
                return !rs.next() || rs.getBoolean(1);
            }
        }
    }

    /** A poll succeeded: the next may come after {@code interval}; the failure count restarts. */
    static void polled(Connection c, long computerId, Duration interval) throws SQLException {
        upsert(c, computerId);
        try (PreparedStatement s = c.prepareStatement("UPDATE computer_activity SET poll_failures = 0,"
                + " next_poll = clock_timestamp() + ? * interval '1 microsecond' WHERE computer_id = ?")) {
            s.setLong(1, interval.toNanos() / 1000);
            s.setLong(2, computerId);
            s.executeUpdate();
        }
    }

    /**
     * A poll failed: returns how many have failed in a row; the next may come after
     * {@code waitAfter} applied to that count.
     */
    static int pollFailed(Connection c, long computerId, IntFunction<Duration> waitAfter) throws SQLException {
        upsert(c, computerId);
        int failures;
        try (PreparedStatement s = c.prepareStatement("UPDATE computer_activity SET poll_failures = poll_failures + 1"
                + " WHERE computer_id = ? RETURNING poll_failures")) {
            s.setLong(1, computerId);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                failures = rs.getInt(1);
            }
        }
        try (PreparedStatement s = c.prepareStatement("UPDATE computer_activity"
                + " SET next_poll = clock_timestamp() + ? * interval '1 millisecond' WHERE computer_id = ?")) {
            s.setLong(1, waitAfter.apply(failures).toMillis());
            s.setLong(2, computerId);
            s.executeUpdate();
        }
        return failures;
    }

    /** Starts counting poll failures again (the processes were paused, or played). */
    static void resetPollFailures(Connection c, long computerId) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("UPDATE computer_activity SET poll_failures = 0 WHERE computer_id = ?")) {
            s.setLong(1, computerId);
            s.executeUpdate();
        }
    }

    /**
     * Takes one submission from the computer's bucket of {@code perMinute} tokens (refilled
     * evenly, full after a minute) and returns how long to wait before submitting: zero while
     * tokens are left, else until the one taken is refilled. The row stays locked until the
     * caller's transaction ends, so submissions on one computer go one at a time.
     */
    static Duration reserveSubmission(Connection c, long computerId, int perMinute) throws SQLException {
        upsert(c, computerId);
        try (PreparedStatement s = c.prepareStatement("UPDATE computer_activity SET submit_tokens = least(?::float8,"
                + " coalesce(submit_tokens + extract(epoch FROM clock_timestamp() - submit_at) * ? / 60.0, ?)) - 1,"
                + " submit_at = clock_timestamp() WHERE computer_id = ? RETURNING submit_tokens")) {
            s.setInt(1, perMinute);
            s.setInt(2, perMinute);
            s.setInt(3, perMinute);
            s.setLong(4, computerId);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                double tokens = rs.getDouble(1);
                return tokens >= 0
                        ? Duration.ZERO
                        : Duration.ofMillis((long) Math.ceil(-tokens * 60_000.0 / perMinute));
            }
        }
    }

    private static void upsert(Connection c, long computerId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement(
                "INSERT INTO computer_activity (computer_id) VALUES (?) ON CONFLICT (computer_id) DO NOTHING")) {
            s.setLong(1, computerId);
            s.executeUpdate();
        }
    }
}
