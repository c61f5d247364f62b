package dev.cairn.api.testing;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import dev.cairn.engine.Engine;

/** Row counts of the engine's tables, to check that a refused request stored nothing. */
public record Rows(long nodes, long links, long processes, long outbox) {

    /**
     * The counts once the worker is idle: processes that earlier tests of the class launched add their
     * nodes while they run, and the relay takes their outbox rows to the broker after they commit, so the
     * counts wait until no process that is not paused is live and the outbox is empty (30 s at most).
     */
    public static Rows settled(Engine engine) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (unsettled(engine) > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        return count(engine);
    }

    /** The counts now. */
    public static Rows count(Engine engine) {
        try (Connection c = engine.database().connection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT (SELECT count(*) FROM node), (SELECT count(*) FROM link),"
                        + " (SELECT count(*) FROM process), (SELECT count(*) FROM outbox)")) {
            rs.next();
            return new Rows(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long unsettled(Engine engine) {
        try (Connection c = engine.database().connection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(
                        "SELECT (SELECT count(*) FROM process WHERE state IN ('created', 'waiting') AND NOT paused)"
                                + " + (SELECT count(*) FROM outbox)")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
