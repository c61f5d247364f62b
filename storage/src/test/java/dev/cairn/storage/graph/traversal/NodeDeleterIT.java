package dev.cairn.storage.graph.traversal;

import static dev.cairn.storage.graph.SampleGraph.set;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.GraphRows;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.SampleGraph;
import dev.cairn.storage.testing.TestDatabase;

class NodeDeleterIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;
    Connection connection;
    GraphRows rows;
    SampleGraph g;

    @BeforeAll
    static void open() {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()));
    }

    @AfterAll
    static void close() {
        database.close();
    }

    @BeforeEach
    void graph() throws SQLException {
        connection = database.connection();
        try (Statement s = connection.createStatement()) {
            s.execute("TRUNCATE node, node_group, app_user CASCADE");
        }
        rows = new GraphRows(connection);
        g = new SampleGraph(rows);
    }

    @AfterEach
    void release() throws SQLException {
        connection.close();
    }

    private Set<Long> remaining() throws SQLException {
        Set<Long> ids = new TreeSet<>();
        try (Statement s = connection.createStatement();
                var r = s.executeQuery("SELECT id FROM node")) {
            while (r.next()) {
                ids.add(r.getLong(1));
            }
        }
        return ids;
    }

    private Set<Long> allBut(Set<Long> gone) {
        Set<Long> kept = new TreeSet<>(g.all());
        kept.removeAll(gone);
        return kept;
    }

    private void execute(String sql) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute(sql);
        }
    }

    @Test
    void deletingADataNodeDeletesTheProcessesThatUsedItAndTheirOutputsTransitively() throws SQLException {
        Set<Long> gone = set(g.d1, g.ow, g.w, g.c1, g.c2, g.c3, g.d2, g.d3, g.d4);
        DeletionResult result = new NodeDeleter(database).delete(NodeIds.of(g.d1), TraversalRules.DELETE);

        assertEquals(allBut(gone), remaining());
        assertEquals(9, result.nodes());
        assertEquals(
                Map.of(
                        GraphRows.INT,
                        4L,
                        GraphRows.WORK_CHAIN,
                        2L,
                        GraphRows.CALC_FUNCTION,
                        2L,
                        GraphRows.CALC_JOB,
                        1L),
                result.nodesByType());
        // Of 17 links only the unrelated calculation's three stay.
        assertEquals(14, result.links());
        assertEquals(3, rows.count("SELECT count(*) FROM link"));
        assertEquals(
                0,
                rows.count("SELECT count(*) FROM link l WHERE NOT EXISTS (SELECT 1 FROM node WHERE id = l.input_id)"
                        + " OR NOT EXISTS (SELECT 1 FROM node WHERE id = l.output_id)"));
    }

    @Test
    void deletingACalledCalculationDeletesItsCallers() throws SQLException {
        new NodeDeleter(database).delete(NodeIds.of(g.c3), TraversalRules.DELETE.with("call_calc_forward", false));
        assertEquals(allBut(set(g.c3, g.d4, g.w, g.ow)), remaining());
    }

    @Test
    void createForwardOffKeepsTheOutputsOfDeletedCalculations() throws SQLException {
        new NodeDeleter(database).delete(NodeIds.of(g.d2), TraversalRules.DELETE.with("create_forward", false));
        assertEquals(allBut(set(g.d2, g.c1, g.c2, g.c3, g.w, g.ow)), remaining());
        assertEquals(0, rows.count("SELECT count(*) FROM link WHERE output_id = " + g.d3));
    }

    @Test
    void sealedAndUnsealedNodesAreDeletedAlike() throws SQLException {
        rows.seal(g.c1);
        rows.seal(g.w);
        rows.seal(g.ow);
        DeletionResult result = new NodeDeleter(database).delete(NodeIds.of(g.d1), TraversalRules.DELETE);
        assertEquals(9, result.nodes());
        assertEquals(allBut(set(g.d1, g.ow, g.w, g.c1, g.c2, g.c3, g.d2, g.d3, g.d4)), remaining());
    }

    @Test
    void groupMembershipsCommentsAndLogsGoWithTheirNodesAndGroupsStay() throws SQLException {
        execute("INSERT INTO node_group (uuid, label, time, user_id) VALUES (gen_random_uuid(), 'g', now(), "
                + rows.userId() + ")");
        execute("INSERT INTO group_member SELECT (SELECT id FROM node_group), id FROM node WHERE id IN (" + g.c1 + ", "
                + g.d9 + ")");
        execute("INSERT INTO comment (uuid, node_id, user_id, ctime, mtime, content) VALUES (gen_random_uuid(), " + g.w
                + ", " + rows.userId() + ", now(), now(), 'look'), (gen_random_uuid(), " + g.dp + ", " + rows.userId()
                + ", now(), now(), 'kept')");
        execute(
                "INSERT INTO log (uuid, time, logger_name, level_name, node_id, message) SELECT gen_random_uuid(), now(), 'x',"
                        + " 'REPORT', " + g.c2 + ", 'm' || i FROM generate_series(1, 5) i");

        DeletionResult result = new NodeDeleter(database).delete(NodeIds.of(g.d1), TraversalRules.DELETE);

        assertEquals(1, result.groupMemberships());
        assertEquals(1, result.comments());
        assertEquals(5, result.logs());
        assertEquals(1, rows.count("SELECT count(*) FROM node_group"));
        assertEquals(1, rows.count("SELECT count(*) FROM group_member WHERE node_id = " + g.d9));
        assertEquals(1, rows.count("SELECT count(*) FROM comment WHERE node_id = " + g.dp));
        assertEquals(0, rows.count("SELECT count(*) FROM log"));
    }

    @Test
    void aPlanListsWhatWouldGoAndChangesNothing() throws SQLException {
        try (DeletionPlan plan = new NodeDeleter(database).plan(NodeIds.of(g.c3), TraversalRules.DELETE)) {
            assertEquals(8, plan.nodeCount());
            assertEquals(
                    Map.of(
                            GraphRows.INT,
                            3L,
                            GraphRows.WORK_CHAIN,
                            2L,
                            GraphRows.CALC_FUNCTION,
                            2L,
                            GraphRows.CALC_JOB,
                            1L),
                    plan.countsByNodeType());
            try (LongStream ids = plan.nodeIds()) {
                assertEquals(
                        set(g.c3, g.d4, g.w, g.ow, g.c1, g.c2, g.d2, g.d3),
                        ids.boxed().collect(Collectors.toCollection(TreeSet::new)));
            }
        }
        assertEquals(g.all(), remaining());
        assertEquals(g.links, rows.count("SELECT count(*) FROM link"));
    }

    @Test
    void smallChunksDeleteExactlyTheSame() throws SQLException {
        DeletionResult result =
                new NodeDeleter(database).withChunkSize(2).delete(NodeIds.of(g.d1, g.d9), TraversalRules.DELETE);
        assertEquals(12, result.nodes());
        assertEquals(g.links, result.links());
        assertEquals(set(g.dp), remaining());
    }

    @Test
    void deletingByGroupTakesTheGroupsNodesAndTheirClosure() throws SQLException {
        execute("INSERT INTO node_group (uuid, label, time, user_id) VALUES (gen_random_uuid(), 'g', now(), "
                + rows.userId() + ")");
        execute("INSERT INTO group_member SELECT (SELECT id FROM node_group), id FROM node WHERE id = " + g.c9);
        long group = rows.count("SELECT id FROM node_group");
        DeletionResult result = new NodeDeleter(database).delete(NodeIds.inGroup(group), TraversalRules.DELETE);
        assertEquals(2, result.nodes());
        assertEquals(allBut(set(g.c9, g.d10)), remaining());
        assertThrows(
                NotFoundException.class,
                () -> new NodeDeleter(database).delete(NodeIds.inGroup(group + 1), TraversalRules.DELETE));
    }

    @Test
    void onlyTheDeleteRulesMayDelete() {
        InvalidInputException e = assertThrows(
                InvalidInputException.class,
                () -> new NodeDeleter(database).delete(NodeIds.of(g.d1), TraversalRules.EXPORT));
        assertTrue(
                e.getMessage().contains("DELETE traversal rules")
                        && e.getMessage().contains("not the EXPORT rules"),
                e.getMessage());
        assertThrows(InvalidInputException.class, () -> new NodeDeleter(database).withChunkSize(0));
    }

    @Test
    void noSeedsDeleteNothing() throws SQLException {
        DeletionResult result = new NodeDeleter(database).delete(NodeIds.of(), TraversalRules.DELETE);
        assertEquals(new DeletionResult(0, Map.of(), 0, 0, 0, 0), result);
        assertEquals(g.all(), remaining());
    }

    @Test
    void aMissingSeedDeletesNothing() throws SQLException {
        assertThrows(
                NotFoundException.class,
                () -> new NodeDeleter(database).delete(NodeIds.of(g.d1, g.d10 + 99), TraversalRules.DELETE));
        assertEquals(g.all(), remaining());
    }

    @Test
    void referencedObjectKeysWalkNestedFoldersAndForgetDeletedNodes() throws SQLException {
        String a = "a".repeat(64), b = "b".repeat(64), c = "c".repeat(64);
        long kept = rows.node(
                GraphRows.INT,
                "{\"o\": {\"f.txt\": {\"k\": \"" + a + "\"}, \"sub\": {\"o\": {\"deep\": {\"o\": {\"g\": {\"k\": \"" + b
                        + "\"}}}}}}}");
        long doomed =
                rows.node(GraphRows.INT, "{\"o\": {\"h\": {\"k\": \"" + c + "\"}, \"again\": {\"k\": \"" + a + "\"}}}");
        rows.node(GraphRows.INT, "{\"o\": {}}");
        ObjectReferences references = new ObjectReferences(database);
        Set<String> keys = new TreeSet<>();
        assertEquals(3, references.referencedObjectKeys(k -> keys.add(k.hex())));
        assertEquals(Set.of(a, b, c), keys);

        new NodeDeleter(database).delete(NodeIds.of(doomed), TraversalRules.DELETE);
        keys.clear();
        assertEquals(2, references.referencedObjectKeys(k -> keys.add(k.hex())));
        assertEquals(Set.of(a, b), keys);
        assertTrue(rows.exists(kept));
        assertFalse(rows.exists(doomed));
    }
}
