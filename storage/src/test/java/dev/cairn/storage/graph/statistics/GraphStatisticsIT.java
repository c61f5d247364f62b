package dev.cairn.storage.graph.statistics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.GraphFixtures;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.StrData;
import dev.cairn.storage.graph.WorkChainNode;
import dev.cairn.storage.graph.traversal.NodeDeleter;
import dev.cairn.storage.graph.traversal.TraversalRules;
import dev.cairn.storage.testing.TestDatabase;

/**
 * The counts kept as nodes are written are the node table's own counts after every kind of write
 * (single, small and COPY batch stores, another session's inserts, state changes, pauses, deletions,
 * truncation), before and after compaction, for everyone and per user; and writers do not wait for
 * one another on them.
 */
class GraphStatisticsIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;
    static GraphStatistics statistics;
    static long alice;
    static long bob;

    @BeforeAll
    static void open() throws SQLException {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()).withPoolSize(4));
        statistics = new GraphStatistics(database);
        alice = GraphFixtures.user(database, "alice@example.com");
        bob = GraphFixtures.user(database, "bob@example.com");
    }

    @AfterAll
    static void close() {
        database.close();
    }

    @BeforeEach
    void empty() throws SQLException {
        sql("TRUNCATE node CASCADE");
    }

    @Test
    void countsFollowStoresStateChangesAndDeletions() throws SQLException {
        GraphStore asAlice = new GraphStore(database, null, alice);
        GraphStore asBob = asAlice.forUser(bob);
        asAlice.store(new IntData(1));
        asAlice.storeAll(List.of(new IntData(2), new IntData(3), new StrData("x")));
        asBob.store(new IntData(4));
        CalcFunctionNode add = process(new CalcFunctionNode("arithmetic.add"), "created");
        WorkChainNode chain = process(new WorkChainNode("examples.sum_series"), "waiting");
        asAlice.storeAll(List.of(add, chain));
        // a Dict's keys are attributes: these do not make it a process
        asBob.store(new DictData(Map.of("process_state", "finished", "paused", true)));
        assertMatchesTheNodeTable(null);
        assertMatchesTheNodeTable(alice);
        assertMatchesTheNodeTable(bob);

        sql("UPDATE node SET attributes = attributes || '{\"process_state\": \"waiting\", \"paused\": true}'"
                + " WHERE id = " + add.id());
        Statistics s = statistics.read(null, 7);
        assertEquals(Map.of("waiting", 2L), s.processStates());
        assertEquals(1, s.paused());
        sql("UPDATE node SET attributes = attributes || '{\"process_state\": \"finished\", \"paused\": false}'"
                + " WHERE id IN (" + add.id() + ", " + chain.id() + ")");
        s = statistics.read(null, 7);
        assertEquals(Map.of("finished", 2L), s.processStates());
        assertEquals(0, s.paused());
        // extras and labels change without touching the counts
        sql("UPDATE node SET label = 'renamed', extras = '{\"k\": 1}'");
        assertMatchesTheNodeTable(null);

        assertTrue(statistics.compact() > 0);
        assertEquals(0, count("node_tally_change"));
        assertEquals(count("node"), scalar("SELECT sum(nodes) FROM node_tally_day"));
        assertMatchesTheNodeTable(null);
        assertMatchesTheNodeTable(alice);

        new NodeDeleter(database).delete(NodeIds.of(chain.id()), TraversalRules.DELETE);
        asAlice.store(new IntData(5));
        // a batch too large for one statement goes by COPY
        List<Node> copied = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            copied.add(i % 10 == 0 ? process(new CalcFunctionNode("arithmetic.add"), "finished") : new IntData(i));
        }
        asBob.storeAll(copied);
        assertMatchesTheNodeTable(null);
        statistics.compact();
        assertMatchesTheNodeTable(null);
        assertMatchesTheNodeTable(bob);
        // no key is kept for what counts nothing any more
        assertEquals(0, scalar("SELECT count(*) FROM node_tally WHERE node_type = '" + WorkChainNode.TYPE + "'"));
        assertEquals(count("node"), scalar("SELECT sum(nodes) FROM node_tally"));
        assertEquals(count("node"), scalar("SELECT sum(nodes) FROM node_tally_day"));
    }

    @Test
    void daysCountBackFromTodayInUtcWithEmptyDaysAsZero() throws SQLException {
        Instant now = Instant.parse("2030-03-10T23:30:00Z");
        GraphStatistics at = new GraphStatistics(database, Clock.fixed(now, ZoneOffset.UTC));
        // 23:30 UTC on the 10th, 00:30 the next morning in Zurich: still the 10th
        insertAt("2030-03-11T00:30:00+01:00", 3);
        insertAt("2030-03-08T12:00:00Z", 2);
        insertAt("2030-02-01T12:00:00Z", 4);
        Statistics s = at.read(null, 3);
        TreeMap<LocalDate, Long> expected = new TreeMap<>(Map.of(
                LocalDate.parse("2030-03-08"),
                2L,
                LocalDate.parse("2030-03-09"),
                0L,
                LocalDate.parse("2030-03-10"),
                3L));
        assertEquals(expected, s.days());
        assertEquals(9, s.total());
        at.compact();
        assertEquals(expected, at.read(null, 3).days());
        assertEquals(expected, at.read(alice, 3).days());
        assertEquals(Map.of(LocalDate.parse("2030-03-10"), 0L), at.read(bob, 1).days());
        assertEquals(40, at.read(null, 40).days().size());
        assertThrows(InvalidInputException.class, () -> at.read(null, 0));
        assertThrows(InvalidInputException.class, () -> at.read(null, GraphStatistics.MAX_DAYS + 1));
    }

    @Test
    void truncatingTheNodesEmptiesTheCounts() throws SQLException {
        new GraphStore(database, null, alice).store(new IntData(1));
        statistics.compact();
        new GraphStore(database, null, alice).store(new IntData(2));
        sql("TRUNCATE node CASCADE");
        assertEquals(0, statistics.read(null, 1).total());
        assertEquals(0, count("node_tally") + count("node_tally_day") + count("node_tally_change"));
    }

    /**
     * A session other than Cairn's (psql, a tool) that inserts nodes has them counted by the trigger,
     * once; Cairn's own sessions count what they insert in the inserting statement, also once.
     */
    @Test
    void anotherSessionsInsertsAreCountedOnceAsCairnsAre() throws SQLException {
        try (Connection other = db.connect()) {
            insertWith(other, alice);
            insertWith(other, bob);
        }
        new GraphStore(database, null, alice).store(new IntData(1));
        assertEquals(3, statistics.read(null, 1).total());
        assertMatchesTheNodeTable(alice);
        assertMatchesTheNodeTable(bob);
    }

    /** A writer that has not committed holds no lock that another writer of the same key waits for. */
    @Test
    void writersOfTheSameKeyDoNotWaitForEachOther() throws SQLException {
        GraphStore asAlice = new GraphStore(database, null, alice);
        try (Connection first = database.connection();
                Connection other = db.connect()) {
            first.setAutoCommit(false);
            other.setAutoCommit(false);
            asAlice.inTransaction(first).storeAll(List.of(new IntData(1)));
            insertWith(other, alice);
            try (Connection second = database.connection();
                    Statement s = second.createStatement()) {
                s.execute("SET lock_timeout = '2s'");
                asAlice.inTransaction(second).storeAll(List.of(new IntData(2)));
                try (Connection third = db.connect();
                        Statement t = third.createStatement()) {
                    t.execute("SET lock_timeout = '2s'");
                    insertWith(third, alice);
                }
                statistics.compact();
            }
            first.commit();
            other.commit();
        }
        assertEquals(4, statistics.read(alice, 1).total());
        statistics.compact();
        assertEquals(4, statistics.read(alice, 1).total());
    }

    private static <T extends ProcessNode> T process(T node, String state) {
        node.setProcessState(state);
        return node;
    }

    /** Every count equals the node table's, for everyone or one user. */
    private static void assertMatchesTheNodeTable(Long user) throws SQLException {
        Statistics s = statistics.read(user, 1);
        String where = user == null ? "" : " AND user_id = " + user;
        assertEquals(grouped("SELECT node_type, count(*) FROM node WHERE true" + where + " GROUP BY 1"), s.nodeTypes());
        assertEquals(
                grouped("SELECT process_type, count(*) FROM node WHERE process_type IS NOT NULL" + where
                        + " GROUP BY 1"),
                s.processTypes());
        assertEquals(
                grouped("SELECT attributes ->> 'process_state', count(*) FROM node WHERE node_type LIKE 'process.%'"
                        + where + " GROUP BY 1"),
                s.processStates());
        assertEquals(scalar("SELECT count(*) FROM node WHERE true" + where), s.total());
        assertEquals(
                scalar("SELECT count(*) FROM node WHERE node_type LIKE 'process.%'"
                        + " AND attributes -> 'paused' = 'true'" + where),
                s.paused());
    }

    /** Nodes created at {@code ctime}, which only another session can write (Cairn stores a node now). */
    private static void insertAt(String ctime, int nodes) throws SQLException {
        try (Connection other = db.connect();
                Statement s = other.createStatement()) {
            s.execute("INSERT INTO node (uuid, node_type, ctime, mtime, user_id) SELECT gen_random_uuid(), '"
                    + IntData.TYPE + "', '" + ctime + "', now(), " + alice + " FROM generate_series(1, " + nodes
                    + ")");
        }
    }

    private static void insertWith(Connection c, long user) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("INSERT INTO node (uuid, node_type, ctime, mtime, user_id)"
                + " VALUES (gen_random_uuid(), '" + IntData.TYPE + "', now(), now(), ?)")) {
            s.setLong(1, user);
            s.executeUpdate();
        }
    }

    private static Map<String, Long> grouped(String query) throws SQLException {
        Map<String, Long> counts = new TreeMap<>();
        try (Connection c = database.connection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(query)) {
            while (r.next()) {
                counts.put(r.getString(1), r.getLong(2));
            }
        }
        return counts;
    }

    private static long scalar(String query) throws SQLException {
        try (Connection c = database.connection();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery(query)) {
            r.next();
            return r.getLong(1);
        }
    }

    private static long count(String table) throws SQLException {
        return scalar("SELECT count(*) FROM " + table);
    }

    private static void sql(String statement) throws SQLException {
        try (Connection c = database.connection();
                Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }
}
