package dev.cairn.storage.graph.statistics;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.TreeMap;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.StorageException;

/**
 * Reads the graph's statistics from the counts the database keeps ({@code node_tally} per kind of
 * node and user, {@code node_tally_day} per day and user, and the changes appended since the last
 * {@link #compact}: by the statements that insert nodes, and by triggers for state changes,
 * deletions and other sessions' inserts); never counts the node table.
 * <p>
 * Writers append change rows rather than update a counter in place, so concurrent writers never
 * wait for one another. The appended rows are summed into the counts
 * by {@link #compact}, which a server calls every few seconds; reading adds up both tables, so
 * its answer is exact whether or not compaction has run, and it stays fast as long as it does.
 */
public final class GraphStatistics {

    /** The most days one reading may go back. */
    public static final int MAX_DAYS = 3660;

    /** Compactions take turns across every server on the database (an advisory lock of this key). */
    private static final long COMPACTION_LOCK = 0x6e6f64655f74616cL; // "node_tal"

    private static final String KIND = "node_type, process_type, process_state, paused";
    private static final String FOR_USER = " WHERE ?::bigint IS NULL OR user_id = ?";

    /** Every kind's count, grouped two ways in one pass: by node and process type; by process state and paused. */
    private static final String READ_KINDS = "SELECT GROUPING(" + KIND + "), " + KIND + ", sum(nodes)::bigint"
            + " FROM (SELECT " + KIND + ", nodes FROM node_tally" + FOR_USER
            + "   UNION ALL SELECT " + KIND + ", nodes FROM node_tally_change" + FOR_USER + ") k"
            + " GROUP BY GROUPING SETS ((node_type, process_type), (process_state, paused))"
            + " HAVING sum(nodes) <> 0";

    // GROUPING's bits, the last argument lowest: 1 for each column the row is not grouped by
    private static final int BY_TYPE = 0b0011;
    private static final int BY_STATE = 0b1100;

    private static final String READ_DAYS = "SELECT day, sum(nodes)::bigint FROM ("
            + " SELECT day, nodes FROM node_tally_day WHERE day >= ? AND (?::bigint IS NULL OR user_id = ?)"
            + " UNION ALL SELECT day, nodes FROM node_tally_change WHERE day >= ? AND (?::bigint IS NULL OR user_id = ?)"
            + ") d GROUP BY day";

    /** Moves every change it sees into both tallies; answers how many changes it moved. */
    private static final String COMPACT = "WITH moved AS (DELETE FROM node_tally_change RETURNING " + KIND
            + ", user_id, day, nodes),"
            + " kinds AS (INSERT INTO node_tally AS t (" + KIND + ", user_id, nodes)"
            + "   SELECT " + KIND + ", user_id, sum(nodes) FROM moved GROUP BY " + KIND + ", user_id"
            + "   ON CONFLICT (" + KIND + ", user_id) DO UPDATE SET nodes = t.nodes + excluded.nodes),"
            + " days AS (INSERT INTO node_tally_day AS d (day, user_id, nodes)"
            + "   SELECT day, user_id, sum(nodes) FROM moved GROUP BY day, user_id"
            + "   ON CONFLICT (day, user_id) DO UPDATE SET nodes = d.nodes + excluded.nodes)"
            + " SELECT count(*) FROM moved";

    private final Database database;
    private final Clock clock;

    /** The statistics of this database, counting days back from today in UTC. */
    public GraphStatistics(Database database) {
        this(database, Clock.systemUTC());
    }

    /** @param clock says what today is (in UTC), for the days counted back */
    public GraphStatistics(Database database, Clock clock) {
        this.database = Objects.requireNonNull(database, "database");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /**
     * The statistics of every user's nodes, or of one user's.
     *
     * @param userId the user whose nodes count; null: everyone's
     * @param days   how many days of creation to count, today (UTC) included: 1 to {@value #MAX_DAYS}
     */
    public Statistics read(Long userId, int days) {
        if (days < 1 || days > MAX_DAYS) {
            throw new InvalidInputException("days must be from 1 to " + MAX_DAYS + ", not " + days);
        }
        LocalDate today = LocalDate.now(clock.withZone(ZoneOffset.UTC));
        LocalDate first = today.minusDays(days - 1L);
        TreeMap<String, Long> nodeTypes = new TreeMap<>();
        TreeMap<String, Long> processTypes = new TreeMap<>();
        TreeMap<LocalDate, Long> perDay = new TreeMap<>();
        TreeMap<String, Long> states = new TreeMap<>();
        for (LocalDate d = first; !d.isAfter(today); d = d.plusDays(1)) {
            perDay.put(d, 0L);
        }
        long[] total = {0};
        long[] paused = {0};
        try {
            // one snapshot for both queries: the days add up to what the kinds count
            Transactions.run(database, c -> {
                try (Statement s = c.createStatement()) {
                    s.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
                }
                try (PreparedStatement s = c.prepareStatement(READ_KINDS)) {
                    for (int i = 1; i <= 4; i++) {
                        s.setObject(i, userId);
                    }
                    try (ResultSet r = s.executeQuery()) {
                        while (r.next()) {
                            long n = r.getLong(6);
                            switch (r.getInt(1)) {
                                case BY_TYPE -> {
                                    total[0] += n;
                                    nodeTypes.merge(r.getString(2), n, Long::sum);
                                    if (!r.getString(3).isEmpty()) {
                                        processTypes.merge(r.getString(3), n, Long::sum);
                                    }
                                }
                                case BY_STATE -> {
                                    if (!r.getString(4).isEmpty()) {
                                        states.merge(r.getString(4), n, Long::sum);
                                    }
                                    if (r.getBoolean(5)) {
                                        paused[0] += n;
                                    }
                                }
                                default -> throw new IllegalStateException("unexpected grouping " + r.getInt(1));
                            }
                        }
                    }
                }
                try (PreparedStatement s = c.prepareStatement(READ_DAYS)) {
                    s.setObject(1, first);
                    s.setObject(2, userId);
                    s.setObject(3, userId);
                    s.setObject(4, first);
                    s.setObject(5, userId);
                    s.setObject(6, userId);
                    try (ResultSet r = s.executeQuery()) {
                        while (r.next()) {
                            LocalDate day = r.getObject(1, LocalDate.class);
                            // days after today by the database's clock are left out
                            if (perDay.containsKey(day)) {
                                perDay.put(day, r.getLong(2));
                            }
                        }
                    }
                }
                return null;
            });
        } catch (SQLException e) {
            throw new StorageException("reading the graph's statistics", e);
        }
        return new Statistics(total[0], nodeTypes, processTypes, perDay, states, paused[0]);
    }

    /**
     * Sums the changes the triggers appended into the tallies, one row per key, and drops keys
     * that count nothing any more. Returns how many changes it moved; 0 as well when another
     * compaction is under way (they take turns, and the next call does the work).
     */
    public long compact() {
        try {
            return Transactions.run(database, c -> {
                try (PreparedStatement lock = c.prepareStatement("SELECT pg_try_advisory_xact_lock(?)")) {
                    lock.setLong(1, COMPACTION_LOCK);
                    try (ResultSet r = lock.executeQuery()) {
                        r.next();
                        if (!r.getBoolean(1)) {
                            return 0L;
                        }
                    }
                }
                try (Statement s = c.createStatement();
                        // the changes this statement does not see (committed after it began) stay for the next time
                        ResultSet moved = s.executeQuery(COMPACT)) {
                    moved.next();
                    long n = moved.getLong(1);
                    if (n > 0) {
                        s.executeUpdate("DELETE FROM node_tally WHERE nodes = 0");
                        s.executeUpdate("DELETE FROM node_tally_day WHERE nodes = 0");
                    }
                    return n;
                }
            });
        } catch (SQLException e) {
            throw new StorageException("compacting the graph's statistics", e);
        }
    }
}
