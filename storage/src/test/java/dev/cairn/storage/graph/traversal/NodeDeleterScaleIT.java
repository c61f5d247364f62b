package dev.cairn.storage.graph.traversal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.GraphRows;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.testing.TestDatabase;

/**
 * Deletion at scale: 200,010 nodes in 200 trees of workflows, half of which are deleted from
 * their 100 seeds. Each tree is a seed data node and 333 units (workflow, calculation, output),
 * a unit taking its parent unit's output as input, binary-tree fashion; every calculation also
 * takes one of 10 shared parameter nodes, which must survive.
 */
class NodeDeleterScaleIT {

    static final int TREES = 200;
    static final int DOOMED_TREES = 100;
    static final int UNITS = 333;
    static final int PARAMETERS = 10;
    static final int TREE_NODES = 1 + 3 * UNITS;
    static final int NODES = PARAMETERS + TREES * TREE_NODES;
    static final int LINKS_PER_UNIT = 6;

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;

    @BeforeAll
    static void build() throws SQLException {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()));
        try (Connection c = database.connection();
                Statement s = c.createStatement()) {
            long user = GraphRows.user(c, "scale@example.com");
            long started = System.nanoTime();
            CopyLines.copy(
                    c,
                    "COPY node (uuid, node_type, ctime, mtime, user_id) FROM STDIN",
                    IntStream.range(0, NODES)
                            .mapToObj(i -> uuid(i) + "\t" + typeOf(i) + "\t2024-01-01 00:00:00+00\t"
                                    + "2024-01-01 00:00:00+00\t" + user));
            s.execute("CREATE TEMP TABLE link_stage (input uuid, output uuid, type text, label text)");
            CopyLines.copy(c, "COPY link_stage FROM STDIN", links());
            s.execute("INSERT INTO link (input_id, output_id, type, label) SELECT i.id, o.id, s.type, s.label"
                    + " FROM link_stage s JOIN node i ON i.uuid = s.input JOIN node o ON o.uuid = s.output");
            s.execute("DROP TABLE link_stage");
            // A group of all seeds, and comments and logs on every doomed calculation.
            s.execute("INSERT INTO node_group (uuid, label, time, user_id) VALUES (gen_random_uuid(), 'seeds', now(), "
                    + user + ")");
            s.execute("INSERT INTO group_member SELECT g.id, n.id FROM node_group g, node n WHERE n.uuid = ANY(ARRAY["
                    + String.join(
                            ", ",
                            IntStream.range(0, TREES)
                                    .mapToObj(t -> "'" + uuid(seed(t)) + "'::uuid")
                                    .toList())
                    + "])");
            s.execute(
                    "INSERT INTO comment (uuid, node_id, user_id, ctime, mtime, content) SELECT gen_random_uuid(), id, user_id,"
                            + " now(), now(), 'c' FROM node WHERE node_type = '" + GraphRows.CALC_FUNCTION + "'");
            s.execute(
                    "INSERT INTO log (uuid, time, logger_name, level_name, node_id, message) SELECT gen_random_uuid(), now(),"
                            + " 'scale', 'REPORT', id, 'm' FROM node WHERE node_type = '" + GraphRows.CALC_FUNCTION
                            + "'");
            s.execute("ANALYZE");
            System.out.printf(
                    "scale graph: %d nodes, %d links built in %.1f s%n",
                    count(c, "node"), count(c, "link"), (System.nanoTime() - started) / 1e9);
        }
    }

    @AfterAll
    static void close() {
        database.close();
    }

    static UUID uuid(int index) {
        return new UUID(0xCA1B_0000_0000_0000L, index);
    }

    static int seed(int tree) {
        return PARAMETERS + tree * TREE_NODES;
    }

    /** Node index of unit {@code u}'s workflow in {@code tree}; its calculation and output follow. */
    static int unit(int tree, int u) {
        return seed(tree) + 1 + 3 * u;
    }

    static String typeOf(int index) {
        if (index < PARAMETERS) {
            return GraphRows.INT;
        }
        return switch ((index - PARAMETERS) % TREE_NODES % 3) {
            case 0 -> GraphRows.INT; // the seed and each unit's output
            case 1 -> GraphRows.WORK_CHAIN;
            default -> GraphRows.CALC_FUNCTION;
        };
    }

    static Stream<String> links() {
        return IntStream.range(0, TREES)
                .boxed()
                .flatMap(tree -> IntStream.range(0, UNITS).boxed().flatMap(u -> {
                    int w = unit(tree, u), calc = w + 1, out = w + 2;
                    int input = u == 0 ? seed(tree) : unit(tree, (u - 1) / 2) + 2;
                    int parameters = (tree + u) % PARAMETERS;
                    List<String> lines = new ArrayList<>(LINKS_PER_UNIT);
                    lines.add(line(input, calc, "input_calc", "x"));
                    lines.add(line(parameters, calc, "input_calc", "parameters"));
                    lines.add(line(calc, out, "create", "result"));
                    lines.add(line(input, w, "input_work", "x"));
                    lines.add(line(w, calc, "call_calc", "CALL"));
                    lines.add(line(w, out, "return", "result"));
                    return lines.stream();
                }));
    }

    static String line(int input, int output, String type, String label) {
        return uuid(input) + "\t" + uuid(output) + "\t" + type + "\t" + label;
    }

    static long count(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement();
                var r = s.executeQuery("SELECT count(*) FROM " + table)) {
            r.next();
            return r.getLong(1);
        }
    }

    /** The seeds of the doomed trees, streamed from their uuids. */
    static NodeIds doomedSeeds(Connection c) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Statement s = c.createStatement();
                var r = s.executeQuery("SELECT id FROM node WHERE uuid = ANY(ARRAY["
                        + String.join(
                                ", ",
                                IntStream.range(0, DOOMED_TREES)
                                        .mapToObj(t -> "'" + uuid(seed(t)) + "'::uuid")
                                        .toList())
                        + "])")) {
            while (r.next()) {
                ids.add(r.getLong(1));
            }
        }
        assertEquals(DOOMED_TREES, ids.size());
        return NodeIds.streamed(ids.stream().mapToLong(Long::longValue));
    }

    @Test
    void deletesAClosureOfOneHundredThousandNodesAndKeepsTheRestExactly() throws SQLException {
        int doomedUnits = DOOMED_TREES * UNITS;
        Map<String, Long> expectedTypes = Map.of(
                GraphRows.INT,
                (long) DOOMED_TREES + doomedUnits,
                GraphRows.WORK_CHAIN,
                (long) doomedUnits,
                GraphRows.CALC_FUNCTION,
                (long) doomedUnits);
        NodeDeleter deleter = new NodeDeleter(database);
        try (Connection c = database.connection()) {
            long started = System.nanoTime();
            try (DeletionPlan plan = deleter.plan(doomedSeeds(c), TraversalRules.DELETE)) {
                assertEquals(100_000, plan.nodeCount());
                assertEquals(expectedTypes, plan.countsByNodeType());
                try (LongStream ids = plan.nodeIds()) {
                    assertEquals(100_000, ids.count());
                }
            }
            System.out.printf(
                    "plan of 100,000 nodes (dry run, counts, ids streamed): %.2f s%n",
                    (System.nanoTime() - started) / 1e9);
            assertEquals(NODES, count(c, "node"));

            started = System.nanoTime();
            DeletionResult result = deleter.delete(doomedSeeds(c), TraversalRules.DELETE);
            System.out.printf(
                    "delete of 100,000 nodes, %d links, %d comments, %d logs, %d memberships: %.2f s%n",
                    result.links(),
                    result.comments(),
                    result.logs(),
                    result.groupMemberships(),
                    (System.nanoTime() - started) / 1e9);

            assertEquals(100_000, result.nodes());
            assertEquals(expectedTypes, result.nodesByType());
            assertEquals((long) doomedUnits * LINKS_PER_UNIT, result.links());
            assertEquals(doomedUnits, result.comments());
            assertEquals(doomedUnits, result.logs());
            assertEquals(DOOMED_TREES, result.groupMemberships());

            assertEquals(NODES - 100_000, count(c, "node"));
            assertEquals((long) (TREES - DOOMED_TREES) * UNITS * LINKS_PER_UNIT, count(c, "link"));
            assertEquals(TREES - DOOMED_TREES, count(c, "group_member"));
            assertEquals((long) (TREES - DOOMED_TREES) * UNITS, count(c, "comment"));
            assertEquals((long) (TREES - DOOMED_TREES) * UNITS, count(c, "log"));
            // The shared parameters stay, still used by every kept calculation.
            assertEquals(
                    PARAMETERS,
                    count(
                            c,
                            "node WHERE uuid = ANY(ARRAY["
                                    + String.join(
                                            ", ",
                                            IntStream.range(0, PARAMETERS)
                                                    .mapToObj(i -> "'" + uuid(i) + "'::uuid")
                                                    .toList())
                                    + "])"));
            assertEquals((long) (TREES - DOOMED_TREES) * UNITS, count(c, "link WHERE label = 'parameters'"));
        }
    }
}
