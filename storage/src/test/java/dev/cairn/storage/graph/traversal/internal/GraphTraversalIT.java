package dev.cairn.storage.graph.traversal.internal;

import static dev.cairn.storage.graph.SampleGraph.set;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.GraphRows;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.SampleGraph;
import dev.cairn.storage.graph.traversal.TraversalRules;
import dev.cairn.storage.testing.TestDatabase;

class GraphTraversalIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;
    static SampleGraph g;

    @BeforeAll
    static void graph() throws SQLException {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()));
        try (Connection c = database.connection()) {
            g = new SampleGraph(new GraphRows(c));
        }
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private interface InClosure<T> {
        T apply(Closure closure) throws SQLException;
    }

    /** Runs a traversal in a transaction that is rolled back afterwards. */
    private static <T> T traverse(GraphTraversal traversal, NodeIds seeds, InClosure<T> read) throws SQLException {
        try (Connection c = database.connection()) {
            c.setAutoCommit(false);
            try (Closure closure = traversal.run(c, seeds)) {
                return read.apply(closure);
            } finally {
                c.rollback();
            }
        }
    }

    private static Set<Long> nodes(TraversalRules rules, long... seeds) throws SQLException {
        return traverse(new GraphTraversal(rules), NodeIds.of(seeds), GraphTraversalIT::ids);
    }

    private static Set<Long> ids(Closure closure) throws SQLException {
        try (LongStream ids = closure.nodeIds()) {
            Set<Long> set = ids.boxed().collect(Collectors.toCollection(TreeSet::new));
            assertEquals(closure.size(), set.size());
            return set;
        }
    }

    @Test
    void deletingAnInputTakesEveryProcessThatUsedItTheirOutputsAndCallers() throws SQLException {
        assertEquals(set(g.d1, g.ow, g.w, g.c1, g.c2, g.c3, g.d2, g.d3, g.d4), nodes(TraversalRules.DELETE, g.d1));
    }

    @Test
    void deletingACreatedNodeTakesItsCreatorAndTheCreatorsCallers() throws SQLException {
        assertEquals(set(g.d2, g.c1, g.c2, g.c3, g.w, g.ow, g.d3, g.d4), nodes(TraversalRules.DELETE, g.d2));
        assertEquals(
                set(g.d2, g.c1, g.c2, g.c3, g.w, g.ow),
                nodes(TraversalRules.DELETE.with("create_forward", false), g.d2));
    }

    @Test
    void deletingACalledCalculationTakesItsCallersAndWhatTheyCalledUnlessToggledOff() throws SQLException {
        assertEquals(set(g.c3, g.d4, g.w, g.ow, g.c1, g.c2, g.d2, g.d3), nodes(TraversalRules.DELETE, g.c3));
        assertEquals(set(g.c3, g.d4, g.w, g.ow), nodes(TraversalRules.DELETE.with("call_calc_forward", false), g.c3));
    }

    @Test
    void callWorkForwardDecidesWhetherAWorkflowTakesItsSubWorkflows() throws SQLException {
        assertEquals(set(g.ow, g.w, g.c1, g.c2, g.c3, g.d2, g.d3, g.d4), nodes(TraversalRules.DELETE, g.ow));
        assertEquals(set(g.ow), nodes(TraversalRules.DELETE.with("call_work_forward", false), g.ow));
    }

    @Test
    void exportBringsInputsOutputsAndCallersWithTheLinksFollowed() throws SQLException {
        GraphTraversal export = new GraphTraversal(TraversalRules.EXPORT).recordingLinks();
        List<TraversedLink> links = traverse(export, NodeIds.of(g.c2), closure -> {
            assertEquals(set(g.d1, g.dp, g.d2, g.d3, g.d4, g.ow, g.w, g.c1, g.c2, g.c3), ids(closure));
            assertEquals(14, closure.linkCount());
            try (var stream = closure.links()) {
                return stream.toList();
            }
        });
        assertEquals(14, links.size());
        // Every link of the workflow's component, none of the unrelated calculation's.
        assertTrue(
                links.stream().noneMatch(l -> l.inputId() == g.d9 || l.outputId() == g.d10 || l.outputId() == g.c9),
                links.toString());
        assertTrue(links.contains(new TraversedLink(
                links.stream()
                        .filter(l -> l.type() == LinkType.RETURN)
                        .findFirst()
                        .orElseThrow()
                        .id(),
                g.w,
                g.d3,
                LinkType.RETURN,
                "result")));
    }

    @Test
    void exportWithoutCallersOrCreatorsStaysWithTheCalculation() throws SQLException {
        GraphTraversal export = new GraphTraversal(
                        TraversalRules.EXPORT.with("create_backward", false).with("call_calc_backward", false))
                .recordingLinks();
        traverse(export, NodeIds.of(g.c2), closure -> {
            assertEquals(set(g.c2, g.d2, g.d3), ids(closure));
            Set<String> followed = new TreeSet<>();
            closure.forEachLink(l -> followed.add(l.inputId() + "-" + l.type().dbValue() + "-" + l.outputId()));
            assertEquals(Set.of(g.d2 + "-input_calc-" + g.c2, g.c2 + "-create-" + g.d3), followed);
            return null;
        });
    }

    @Test
    void countsByNodeTypeAreComputedInTheDatabase() throws SQLException {
        Map<String, Long> counts =
                traverse(new GraphTraversal(TraversalRules.DELETE), NodeIds.of(g.d1), Closure::countsByNodeType);
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
                counts);
    }

    @Test
    void theDefaultRulesFollowNothing() throws SQLException {
        assertEquals(set(g.d1, g.c2), nodes(TraversalRules.DEFAULT, g.d1, g.c2, g.d1));
        assertEquals(
                set(g.d1, g.c1, g.w, g.ow),
                nodes(TraversalRules.DEFAULT.with("input_calc_forward", true).with("input_work_forward", true), g.d1));
    }

    @Test
    void streamedSeedsGiveTheSameClosureAsListedOnes() throws SQLException {
        Set<Long> streamed = traverse(
                new GraphTraversal(TraversalRules.DELETE),
                NodeIds.streamed(LongStream.of(g.d9, g.d9, g.c3)),
                GraphTraversalIT::ids);
        assertEquals(nodes(TraversalRules.DELETE, g.d9, g.c3), streamed);
        assertTrue(streamed.containsAll(set(g.d9, g.c9, g.d10)));
    }

    @Test
    void seedsThatAreNotNodesAreNamed() throws SQLException {
        long missing = g.d10 + 1000;
        NotFoundException e =
                assertThrows(NotFoundException.class, () -> nodes(TraversalRules.DELETE, g.d1, missing, missing + 1));
        assertEquals("2 of the 3 seed nodes do not exist: " + missing + ", " + (missing + 1), e.getMessage());
    }

    @Test
    void aClosureNeedsATransaction() throws SQLException {
        try (Connection c = database.connection()) {
            IllegalStateException e = assertThrows(
                    IllegalStateException.class,
                    () -> new GraphTraversal(TraversalRules.DELETE).run(c, NodeIds.of(g.d1)));
            assertTrue(e.getMessage().contains("setAutoCommit(false)"), e.getMessage());
        }
    }

    @Test
    void linksAreOnlyAvailableWhenRecorded() throws SQLException {
        traverse(new GraphTraversal(TraversalRules.DELETE), NodeIds.of(g.d1), closure -> {
            assertFalse(closure.recordsLinks());
            assertThrows(IllegalStateException.class, closure::linkCount);
            return null;
        });
    }
}
