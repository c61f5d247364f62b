package dev.cairn.storage.query;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Splits a query over its first vertex's id range into parts that run on connections of
 * their own, all inside one snapshot exported by a coordinating transaction, as parallel
 * dumps do: together the parts return exactly the rows of the one query, as of one moment.
 * It exists because PostgreSQL runs no parallel workers for a cursor, so one cursor turns
 * JSON into text on one core however many the server has.
 */
final class SnapshotSplit implements AutoCloseable {

    /** What {@code pg_export_snapshot()} returns, checked before it goes into SQL text. */
    private static final Pattern SNAPSHOT_ID = Pattern.compile("[0-9A-F]+-[0-9A-F]+(-[0-9]+)?");

    private final Connection coordinator;
    private final String snapshot;
    private final long minId;
    private final long maxId;

    private SnapshotSplit(Connection coordinator, String snapshot, long minId, long maxId) {
        this.coordinator = coordinator;
        this.snapshot = snapshot;
        this.minId = minId;
        this.maxId = maxId;
    }

    /**
     * Exports a snapshot; {@code minId} and {@code maxId} are where the rows' ids lie, which
     * only balances the parts: the first and last part are open-ended, so every id is covered.
     */
    static SnapshotSplit open(Connection coordinator, long minId, long maxId) throws SQLException {
        coordinator.setAutoCommit(false);
        try (Statement s = coordinator.createStatement()) {
            s.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            String snapshot;
            try (ResultSet rs = s.executeQuery("SELECT pg_export_snapshot()")) {
                rs.next();
                snapshot = rs.getString(1);
            }
            if (!SNAPSHOT_ID.matcher(snapshot).matches()) {
                throw new SQLException("unexpected snapshot id from the server: " + snapshot);
            }
            return new SnapshotSplit(coordinator, snapshot, minId, maxId);
        }
    }

    /** {@code ways} half-open id ranges [from, to) covering every id, in order. */
    List<long[]> ranges(int ways) {
        List<long[]> ranges = new ArrayList<>(ways);
        long span = Math.max(1, maxId - minId + 1);
        for (int i = 0; i < ways; i++) {
            ranges.add(new long[] {
                i == 0 ? Long.MIN_VALUE : minId + span * i / ways,
                i == ways - 1 ? Long.MAX_VALUE : minId + span * (i + 1) / ways
            });
        }
        return ranges;
    }

    /** Makes a part's connection read in the coordinator's snapshot. */
    void join(Connection part) throws SQLException {
        part.setAutoCommit(false);
        try (Statement s = part.createStatement()) {
            s.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            s.execute("SET TRANSACTION SNAPSHOT '" + snapshot + "'");
        }
    }

    /** Ends the coordinating transaction; parts that joined keep their snapshot. */
    @Override
    public void close() {
        try {
            coordinator.rollback();
            coordinator.setAutoCommit(true);
            coordinator.close();
        } catch (SQLException ignored) {
            // nothing was written; the connection goes back or away either way
        }
    }
}
