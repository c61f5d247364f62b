package dev.cairn.storage.views;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.GraphFixtures;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.WorkChainNode;
import dev.cairn.storage.graph.groups.GroupStore;
import dev.cairn.storage.query.GraphQuery;
import dev.cairn.storage.query.InvalidQueryException;
import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.testing.TestDatabase;

/**
 * Process lists go through the query builder and find what the criteria name, each criterion on its
 * own and pages after pages; a list of live processes reads their partial index however many ended
 * processes and data nodes the graph holds; trees, reports and one process in full read what the
 * graph holds.
 */
class ProcessViewsIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;
    static ProcessViews views;
    static WorkChainNode chain;
    static CalcFunctionNode ok;
    static CalcFunctionNode failed;
    static WorkChainNode paused;
    static CalcFunctionNode prefixed;

    @BeforeAll
    static void graph() throws SQLException {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()).withPoolSize(4));
        views = new ProcessViews(database);
        long user = GraphFixtures.user(database, "alice@example.com");
        GraphStore graph = new GraphStore(database, null, user);
        chain = graph.store(process(new WorkChainNode("examples.sum_series"), "waiting"));
        IntData x = graph.store(new IntData(3));
        ok = called(graph, chain, process(new CalcFunctionNode("arithmetic.add"), "finished"), 0, x);
        failed = called(graph, chain, process(new CalcFunctionNode("arithmetic.add"), "finished"), 3, x);
        WorkChainNode p = process(new WorkChainNode("examples.sum_series"), "created");
        p.setPaused(true);
        paused = graph.store(p);
        CalcFunctionNode under = process(new CalcFunctionNode("arithmetic_x.add"), "excepted");
        under.setLabel("run_1");
        prefixed = graph.store(under);
        GroupStore groups = new GroupStore(database);
        long group = groups.create("picked", GroupStore.CORE, "", user).id();
        groups.addNodes(group, NodeIds.of(ok.id()));
        // many ended processes and data nodes, among which the live ones are few
        sql("INSERT INTO node (uuid, node_type, process_type, ctime, mtime, user_id, attributes)"
                + " SELECT gen_random_uuid(), CASE WHEN i % 2 = 0 THEN 'data.core.int.Int.'"
                + " ELSE 'process.calculation.calcfunction.CalcFunctionNode.' END, 'filler', now() - interval '1 day',"
                + " now() - interval '1 day', " + user + ", CASE WHEN i % 2 = 0 THEN '{\"value\": 1}'::jsonb"
                + " ELSE '{\"process_state\": \"finished\", \"exit_status\": 0}'::jsonb END"
                + " FROM generate_series(1, 20000) i");
        sql("ANALYZE node");
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private static <T extends ProcessNode> T process(T node, String state) {
        node.setProcessState(state);
        return node;
    }

    private static CalcFunctionNode called(
            GraphStore graph, WorkChainNode caller, CalcFunctionNode calc, int exit, IntData input) {
        calc.setExitStatus(exit);
        calc.addIncoming(caller, LinkType.CALL_CALC, "CALL");
        calc.addIncoming(input, LinkType.INPUT_CALC, "x");
        return graph.store(calc);
    }

    private static void sql(String sql) throws SQLException {
        try (Connection c = database.connection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static List<Long> ids(ProcessCriteria criteria) {
        // newest first: the five above, then the older fillers
        List<Long> ids = new ArrayList<>(views.list(criteria, ProcessViews.Sort.NEWEST_FIRST, null, 100).stream()
                .map(ProcessView::id)
                .filter(id -> id <= prefixed.id())
                .toList());
        return ids.reversed();
    }

    private static ProcessCriteria criteria(
            List<String> states, Boolean failed, Boolean paused, Long caller, Boolean topLevel, String group) {
        return new ProcessCriteria(
                null, states, null, null, null, null, failed, paused, null, null, caller, topLevel, group);
    }

    @Test
    void eachCriterionFindsWhatItNames() {
        assertEquals(List.of(chain.id(), paused.id()), ids(ProcessCriteria.live(null)));
        assertEquals(List.of(paused.id()), ids(ProcessCriteria.live(true)));
        assertEquals(List.of(chain.id()), ids(ProcessCriteria.live(false)));
        assertEquals(List.of(failed.id()), ids(criteria(null, true, null, null, null, null)));
        assertEquals(List.of(ok.id(), failed.id()), ids(criteria(null, null, null, chain.id(), null, null)));
        assertEquals(
                List.of(chain.id(), paused.id(), prefixed.id()), ids(criteria(null, null, null, null, true, null)));
        assertEquals(List.of(ok.id(), failed.id()), ids(criteria(null, null, null, null, false, null)));
        assertEquals(List.of(ok.id()), ids(criteria(null, null, null, null, null, "picked")));
        assertEquals(List.of(prefixed.id()), ids(criteria(List.of("excepted"), null, null, null, null, null)));
        ProcessCriteria underscore = new ProcessCriteria(
                null,
                null,
                ProcessCriteria.Match.beginning("arithmetic_"),
                null,
                ProcessCriteria.Match.beginning("run_"),
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        assertEquals(List.of(prefixed.id()), ids(underscore));
        ProcessCriteria exit = new ProcessCriteria(
                null,
                null,
                ProcessCriteria.Match.exactly("arithmetic.add"),
                null,
                null,
                3,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
        assertEquals(List.of(failed.id()), ids(exit));
        assertEquals(List.of(chain.id(), paused.id()), ids(ofTypes(List.of(WorkChainNode.TYPE))));
        assertEquals(
                List.of(chain.id(), ok.id(), failed.id(), paused.id(), prefixed.id()),
                ids(ofTypes(List.of(WorkChainNode.TYPE, CalcFunctionNode.TYPE))));
        assertEquals(List.of(), ids(ofTypes(List.of(CalcJobNode.TYPE))));
    }

    private static ProcessCriteria ofTypes(List<String> nodeTypes) {
        return new ProcessCriteria(null, null, null, nodeTypes, null, null, null, null, null, null, null, null, null);
    }

    @Test
    void aListOfOneKindReadsTheIndexOfItsNodeTypeInOrder() {
        // the rare kind among 10,000 calculation functions: its page is read from the index in order, not
        // found by walking every process newest first
        QuerySpec jobs =
                ProcessViews.listSpec(ofTypes(List.of(CalcJobNode.TYPE)), ProcessViews.Sort.NEWEST_FIRST, null, 51);
        String plan = GraphQuery.on(database, jobs).explain();
        assertTrue(plan.contains("node_type_ctime_idx"), plan);
        assertFalse(plan.contains("Sort"), plan);
    }

    @Test
    void aSummaryHasItsStateCallerAndUser() {
        ProcessView f = views.summary(failed.id()).orElseThrow();
        assertEquals("finished", f.state());
        assertEquals(3, f.exitStatus());
        assertEquals(chain.uuid(), f.caller());
        assertEquals("alice@example.com", f.user());
        assertFalse(f.paused());
        ProcessView p = views.summary(paused.id()).orElseThrow();
        assertTrue(p.paused());
        assertNull(p.caller());
        assertNull(p.exitStatus());
    }

    @Test
    void pagesFollowOneAnotherWithoutGapsNorRepeats() {
        ProcessCriteria all = ProcessCriteria.ANY;
        long total = views.count(all);
        for (ProcessViews.Sort sort : ProcessViews.Sort.values()) {
            List<Long> seen = new ArrayList<>();
            ProcessViews.After after = null;
            List<ProcessView> page;
            do {
                page = views.list(all, sort, after, 997);
                page.forEach(p -> seen.add(p.id()));
                if (!page.isEmpty()) {
                    ProcessView last = page.getLast();
                    after = new ProcessViews.After(sort.byMtime() ? last.mtime() : last.ctime(), last.id());
                }
            } while (page.size() == 997);
            assertEquals(total, seen.size(), sort.name());
            assertEquals(total, seen.stream().distinct().count(), sort.name());
        }
    }

    @Test
    void aListOfLiveProcessesReadsTheirPartialIndex() {
        QuerySpec live = ProcessViews.listSpec(ProcessCriteria.live(null), ProcessViews.Sort.NEWEST_FIRST, null, 101);
        String plan = GraphQuery.on(database, live).explain();
        assertTrue(plan.contains("node_live_process_idx"), plan);
    }

    @Test
    void theDerivedFieldsHaveNoJsonForm() {
        QuerySpec live = ProcessViews.listSpec(ProcessCriteria.live(null), ProcessViews.Sort.NEWEST_FIRST, null, 1);
        assertThrows(InvalidQueryException.class, live::toJson);
        InvalidQueryException e = assertThrows(
                InvalidQueryException.class,
                () -> QuerySpec.fromJson("{\"path\": [{\"tag\": \"p\", \"entity\": \"node\","
                        + " \"filters\": {\"process_state\": \"waiting\"}}]}"));
        assertTrue(e.getMessage().contains("unknown field 'process_state'"), e.getMessage());
    }

    @Test
    void aTreeListsCallersBeforeWhatTheyCalled() {
        List<ProcessViews.TreeEntry> tree = views.tree(chain.id(), 100);
        assertEquals(
                List.of(chain.id(), ok.id(), failed.id()),
                tree.stream().map(t -> t.process().id()).toList());
        assertNull(tree.getFirst().callerId());
        assertEquals(chain.id(), tree.get(1).callerId());
    }

    @Test
    void oneProcessInFullHasItsInputsAndCallees() {
        ProcessDetailView d = views.detail(chain.id()).orElseThrow();
        assertEquals(
                List.of(ok.id(), failed.id()),
                d.called().stream().map(ProcessView::id).toList());
        ProcessDetailView calc = views.detail(ok.id()).orElseThrow();
        assertEquals(Map.of("x", 3L), Map.of("x", calc.inputs().get("x").value()));
        assertEquals("finished", calc.attributes().get("process_state"));
        assertTrue(views.detail(-1).isEmpty());
    }
}
