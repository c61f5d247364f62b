package dev.cairn.engine.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

import dev.cairn.engine.Engine;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.process.Inputs;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.WorkChainNode;
import dev.cairn.storage.testing.TestDatabase;

/**
 * A batch of work chains ({@code test.child_then_add} and {@code test.fan_out}) submitted
 * together, and the exactly-once checks of their run: every process finished ok with the
 * right result, and the graph holds exactly the nodes and links one clean run makes, no
 * fewer (lost) and no more (doubled). It must be the only thing run on its database.
 * <p>
 * What one run of each stores (see {@link TestProcesses}):
 * <ul>
 * <li>child_then_add(x, y): the work chain, its 2 inputs, the child add and its result, the
 * inline add and its result (7 nodes); links 2 input_work, 2 call_calc and 1 return of the
 * chain, 2 input_calc and 1 create of each add (11 links). Result x + 2y.
 * <li>fan_out(n): the work chain and its input, n child_then_add(i, 1) with their inputs,
 * then n inline adds summing the results from a new Int(0): 2 + 7n + 1 + 2n nodes, links
 * 1 input_work, n call_work, n call_calc, 1 return of the chain, 11 per child chain, 3 per
 * inline add. Result sum over i &lt; n of (i + 2).
 * </ul>
 */
public final class ChainRun {

    private final List<Launcher.Launch> launches = new ArrayList<>();
    private final List<Long> expected = new ArrayList<>();
    private final List<Long> roots = new ArrayList<>();
    private int chains;
    private final List<Integer> fans = new ArrayList<>();

    /** {@code childThenAdd} child_then_add chains, with a fan_out(fanOutSize) after every {@code fanOutEvery}-th. */
    public static ChainRun of(int childThenAdd, int fanOutEvery, int fanOutSize) {
        ChainRun run = new ChainRun();
        for (int i = 0; i < childThenAdd; i++) {
            run.childThenAdd(i, 1 + i % 3);
            if (fanOutEvery > 0 && (i + 1) % fanOutEvery == 0) {
                run.fanOut(fanOutSize);
            }
        }
        return run;
    }

    public ChainRun childThenAdd(long x, long y) {
        launches.add(new Launcher.Launch(
                TestProcesses.ChildThenAdd.DEFINITION,
                Inputs.of(TestProcesses.X, new IntData(x), TestProcesses.Y, new IntData(y))));
        expected.add(x + 2 * y);
        chains++;
        return this;
    }

    public ChainRun fanOut(int n) {
        launches.add(new Launcher.Launch(TestProcesses.FanOut.DEFINITION, Inputs.of(TestProcesses.X, new IntData(n))));
        expected.add((long) n * (n - 1) / 2 + 2L * n);
        fans.add(n);
        return this;
    }

    /** Submits every chain in one batch. */
    public ChainRun submit(Engine engine) {
        List<ProcessNode> nodes = engine.launcher().submitAll(launches);
        nodes.forEach(n -> roots.add(n.id()));
        return this;
    }

    public int size() {
        return launches.size();
    }

    /** Root chains finished (any exit status); -1 when the database did not answer. */
    public long finishedRoots(TestDatabase db) {
        return quietCount(
                db,
                "SELECT count(*) FROM process WHERE parent_id IS NULL"
                        + " AND state IN ('finished', 'excepted', 'killed')");
    }

    /**
     * The durable steps the whole run commits: 2 per work chain (submit, then go on once the
     * children are done) and 1 per calcfunction child; fan_out(n) has n child chains.
     */
    public long totalSteps() {
        long n = fans.stream().mapToLong(Integer::longValue).sum();
        return 3L * chains + 2L * fans.size() + 3 * n;
    }

    /** Waits until {@code fraction} of {@link #totalSteps()} have committed. */
    public void awaitSteps(TestDatabase db, double fraction, Duration timeout, Supplier<String> diagnostics)
            throws InterruptedException {
        long target = (long) Math.ceil(totalSteps() * fraction);
        long deadline = System.nanoTime() + timeout.toNanos();
        long done;
        while ((done = stepsCommitted(db)) < target) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("after " + timeout + " only " + done + " of " + totalSteps()
                        + " steps had committed (waited for " + target + "); " + status(db) + "\n" + diagnostics.get());
            }
            Thread.sleep(20);
        }
    }

    /** Steps committed so far, over all processes (for progress); -1 when the database did not answer. */
    public static long stepsCommitted(TestDatabase db) {
        return quietCount(db, "SELECT coalesce(sum(step), 0) FROM process");
    }

    /** A count, or -1 when the database failed (tests that break it poll through failures). */
    public static long quietCount(TestDatabase db, String sql) {
        try {
            return EngineFixture.count(db, sql);
        } catch (SQLException e) {
            return -1;
        }
    }

    public void awaitFinishedRoots(TestDatabase db, long atLeast, Duration timeout, Supplier<String> diagnostics)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long done;
        while ((done = finishedRoots(db)) < atLeast) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("after " + timeout + " only " + done + " of " + roots.size()
                        + " root chains had terminated (waited for " + atLeast + "); " + status(db) + "\n"
                        + diagnostics.get());
            }
            Thread.sleep(50);
        }
    }

    public void awaitAllFinished(TestDatabase db, Duration timeout, Supplier<String> diagnostics)
            throws InterruptedException {
        awaitFinishedRoots(db, roots.size(), timeout, diagnostics);
    }

    /** Process rows by state and paused flag, and the outbox size, for failure messages. */
    public static String status(TestDatabase db) {
        try (Connection c = db.connect();
                Statement s = c.createStatement()) {
            Map<String, Long> states = new TreeMap<>();
            try (ResultSet rs = s.executeQuery("SELECT state || CASE WHEN paused THEN '+paused' ELSE '' END"
                    + " || CASE WHEN runnable THEN '+runnable' ELSE '' END, count(*) FROM process GROUP BY 1")) {
                while (rs.next()) {
                    states.put(rs.getString(1), rs.getLong(2));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT count(*) FROM outbox")) {
                rs.next();
                return "process rows " + states + ", outbox " + rs.getLong(1);
            }
        } catch (SQLException e) {
            return "(no status: " + e.getMessage() + ")";
        }
    }

    /** Waits until every outbox row has been published and deleted. */
    public static void awaitOutboxEmpty(TestDatabase db, Duration timeout) throws InterruptedException {
        Waits.until(
                timeout,
                "the outbox to be empty (" + status(db) + ")",
                () -> quietCount(db, "SELECT count(*) FROM outbox") == 0);
    }

    /** Nodes by node type that the run should have stored. */
    public Map<String, Long> expectedNodes() {
        long n = fans.stream().mapToLong(Integer::longValue).sum();
        long f = fans.size();
        Map<String, Long> m = new TreeMap<>();
        m.put(WorkChainNode.TYPE, chains + f + n);
        m.put(CalcFunctionNode.TYPE, 2L * chains + 2 * n + n);
        m.put(IntData.TYPE, 4L * chains + f * 2 + 5 * n);
        return m;
    }

    /** Links by type that the run should have stored. */
    public Map<String, Long> expectedLinks() {
        long n = fans.stream().mapToLong(Integer::longValue).sum();
        long f = fans.size();
        Map<String, Long> m = new TreeMap<>();
        m.put("input_work", 2L * chains + f + 2 * n);
        m.put("call_calc", 2L * chains + 3 * n);
        if (n > 0) {
            m.put("call_work", n);
        }
        m.put("return", chains + f + n);
        m.put("input_calc", 4L * chains + 6 * n);
        m.put("create", 2L * chains + 3 * n);
        return m;
    }

    /**
     * The exactly-once checks: all root chains finished with exit 0 and the right result;
     * every process node finished ok and sealed; every process row finished; exact node and
     * link counts by type; each calcfunction has one create link, each child one caller,
     * each child_then_add chain 2 call_calc and 1 return.
     */
    public void assertExactlyOnce(TestDatabase db) throws SQLException {
        try (Connection c = db.connect();
                Statement s = c.createStatement()) {
            assertEquals(
                    expectedNodes(),
                    group(s, "SELECT node_type, count(*) FROM node GROUP BY 1"),
                    "nodes by type (none lost, none doubled)");
            assertEquals(
                    expectedLinks(),
                    group(s, "SELECT type, count(*) FROM link GROUP BY 1"),
                    "links by type (none lost, none doubled)");
            assertEquals(
                    Map.of(
                            "finished",
                            (long) roots.size()
                                    + chains
                                    + fans.stream().mapToLong(i -> 2L * i).sum()),
                    group(s, "SELECT state, count(*) FROM process GROUP BY 1"),
                    "process rows by state");
            assertEquals(
                    Map.of(
                            "finished/0/true",
                            expectedNodes().get(WorkChainNode.TYPE)
                                    + expectedNodes().get(CalcFunctionNode.TYPE)),
                    group(
                            s,
                            "SELECT concat_ws('/', attributes->>'process_state', attributes->>'exit_status',"
                                    + " attributes->>'sealed'), count(*) FROM node WHERE node_type LIKE 'process.%' GROUP BY 1"),
                    "process nodes by state/exit status/sealed");
            assertEquals(
                    0,
                    one(
                            s,
                            "SELECT count(*) FROM node n WHERE node_type = '" + CalcFunctionNode.TYPE + "'"
                                    + " AND (SELECT count(*) FROM link l WHERE l.input_id = n.id AND l.type = 'create') <> 1"),
                    "calcfunctions without exactly one create link");
            assertEquals(
                    0,
                    one(
                            s,
                            "SELECT count(*) FROM node n WHERE node_type LIKE 'process.%'"
                                    + " AND (SELECT count(*) FROM link l WHERE l.output_id = n.id AND l.type LIKE 'call_%')"
                                    + " <> CASE WHEN n.id IN (SELECT node_id FROM process WHERE parent_id IS NULL) THEN 0 ELSE 1 END"),
                    "processes without exactly one caller (roots: none)");
            assertEquals(
                    0,
                    one(
                            s,
                            "SELECT count(*) FROM process p WHERE entry_point = 'test.child_then_add' AND ("
                                    + " (SELECT count(*) FROM link l WHERE l.input_id = p.node_id AND l.type = 'call_calc') <> 2 OR"
                                    + " (SELECT count(*) FROM link l WHERE l.input_id = p.node_id AND l.type = 'return') <> 1)"),
                    "child_then_add chains without exactly 2 call_calc and 1 return links");
            assertEquals(totalSteps(), one(s, "SELECT sum(step) FROM process"), "steps committed");
        }
        assertEquals(expectedResults(), results(db), "root chain results");
    }

    private Map<Long, Long> expectedResults() {
        Map<Long, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < roots.size(); i++) {
            m.put(roots.get(i), expected.get(i));
        }
        return m;
    }

    private Map<Long, Long> results(TestDatabase db) throws SQLException {
        Map<Long, Long> found = new LinkedHashMap<>();
        try (Connection c = db.connect();
                PreparedStatement s = c.prepareStatement("SELECT l.input_id,"
                        + " (n.attributes->>'value')::bigint FROM link l JOIN node n ON n.id = l.output_id"
                        + " WHERE l.type = 'return' AND l.label = 'result' AND l.input_id = ANY(?)")) {
            s.setArray(1, c.createArrayOf("bigint", roots.toArray()));
            Map<Long, Long> values = new TreeMap<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    if (values.put(rs.getLong(1), rs.getLong(2)) != null) {
                        throw new AssertionError("root " + rs.getLong(1) + " returned two results");
                    }
                }
            }
            for (long root : roots) {
                found.put(root, values.get(root));
            }
        }
        return found;
    }

    private static Map<String, Long> group(Statement s, String sql) throws SQLException {
        Map<String, Long> m = new TreeMap<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                m.put(rs.getString(1), rs.getLong(2));
            }
        }
        return m;
    }

    private static long one(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
