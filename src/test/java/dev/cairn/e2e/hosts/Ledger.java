package dev.cairn.e2e.hosts;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

import dev.cairn.e2e.hosts.work.HostsPlugin;
import dev.cairn.engine.Engine;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.Inputs;
import dev.cairn.examples.AddCalcJobWorkChain;
import dev.cairn.examples.AddMultiply;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.RemoteData;
import dev.cairn.storage.graph.WorkChainNode;
import dev.cairn.storage.testing.TestDatabase;

/**
 * What a run launches, and what one clean run of it leaves in the graph: the nodes and links by
 * type, the processes, and each root's result. After the run, {@link #assertExactlyOnce} holds the
 * database to exactly that: a process lost leaves fewer nodes or a root unfinished, a step run
 * twice leaves more. It must be the only thing run on its database (its counts are the whole
 * graph's).
 * <p>
 * What one launch of each kind stores (examples' processes as they are written there):
 * <ul>
 * <li>{@code hosts.nap(ms)}: the calcfunction, its input and its result; 1 input_calc, 1 create.
 * <li>{@code hosts.relay(n, ms)}: the work chain and its 2 inputs; n naps with their results (each
 * taking the chain's {@code ms}); n inline adds from a new 0, each with its result. Links: 2
 * input_work, 2n call_calc, 3n input_calc (1 per nap, 2 per add), 2n create, 1 return.
 * <li>{@code arithmetic.add_multiply(x, y, z)}: the work chain, 3 inputs, an add and a multiply
 * with their results. Links: 3 input_work, 2 call_calc, 4 input_calc, 2 create, 1 return.
 * <li>{@code arithmetic.add_calcjob_workchain(code, x, y)}: the work chain and 2 new inputs (the
 * code is the run's), the job with its result, remote folder and retrieved folder, an add with
 * its result. Links: 3 input_work, 2 call_calc, 5 input_calc (3 of the job, 2 of the add), 4 create,
 * 1 return.
 * </ul>
 */
public final class Ledger {

    private final List<Launcher.Launch> launches = new ArrayList<>();
    private final List<Long> expectedResults = new ArrayList<>();
    private final List<Long> roots = new ArrayList<>();
    private final Map<String, Long> nodes = new TreeMap<>();
    private final Map<String, Long> links = new TreeMap<>();
    private long processes;
    private long rows;
    private long jobs;

    /** {@code hosts.nap(ms)} as a root of its own. */
    public Ledger nap(long ms) {
        launch(new Launcher.Launch(HostsPlugin.NAP, Inputs.of(HostsPlugin.MS, new IntData(ms))), ms);
        count(nodes, CalcFunctionNode.TYPE, 1);
        count(nodes, IntData.TYPE, 2);
        count(links, "input_calc", 1);
        count(links, "create", 1);
        processes += 1;
        rows += 1;
        return this;
    }

    /** {@code hosts.spin(rounds)} as a root of its own; its result is not checked (a digest). */
    public Ledger spin(long rounds) {
        launch(new Launcher.Launch(HostsPlugin.SPIN, Inputs.of(HostsPlugin.ROUNDS, new IntData(rounds))), null);
        count(nodes, CalcFunctionNode.TYPE, 1);
        count(nodes, IntData.TYPE, 2);
        count(links, "input_calc", 1);
        count(links, "create", 1);
        processes += 1;
        rows += 1;
        return this;
    }

    /** {@code hosts.relay(n, ms)}: n naps, waited for, then summed. */
    public Ledger relay(int n, long ms) {
        if (n < 1) {
            throw new IllegalArgumentException("a relay has at least one nap");
        }
        launch(
                new Launcher.Launch(
                        HostsPlugin.Relay.DEFINITION,
                        Inputs.of(HostsPlugin.N, new IntData(n), HostsPlugin.MS, new IntData(ms))),
                n * ms);
        count(nodes, WorkChainNode.TYPE, 1);
        count(nodes, CalcFunctionNode.TYPE, 2L * n);
        count(nodes, IntData.TYPE, 2 + n + 1 + n);
        count(links, "input_work", 2);
        count(links, "call_calc", 2L * n);
        count(links, "input_calc", 3L * n);
        count(links, "create", 2L * n);
        count(links, "return", 1);
        processes += 1 + 2L * n;
        rows += 1 + n;
        return this;
    }

    /** The examples' {@code arithmetic.add_multiply(x, y, z)}: (x + y) × z by two calcfunctions. */
    public Ledger addMultiply(long x, long y, long z) {
        launch(
                new Launcher.Launch(
                        AddMultiply.DEFINITION,
                        Inputs.of(
                                AddMultiply.X,
                                new IntData(x),
                                AddMultiply.Y,
                                new IntData(y),
                                AddMultiply.Z,
                                new IntData(z))),
                (x + y) * z);
        count(nodes, WorkChainNode.TYPE, 1);
        count(nodes, CalcFunctionNode.TYPE, 2);
        count(nodes, IntData.TYPE, 5);
        count(links, "input_work", 3);
        count(links, "call_calc", 2);
        count(links, "input_calc", 4);
        count(links, "create", 2);
        count(links, "return", 1);
        processes += 3;
        rows += 1;
        return this;
    }

    /** {@code chains} work chains: every fifth a calculation job chain on {@code code}, the rest 3 naps of 0.3 to 0.9 s. */
    public Ledger napsAndJobs(InstalledCode code, int chains) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < chains; i++) {
            if (i % 5 == 4) {
                addCalcJob(code, i, 1);
            } else {
                relay(3, random.nextLong(300, 900));
            }
        }
        return this;
    }

    /** The code the run's calculation jobs use: stored by the test, counted once. */
    public Ledger code() {
        count(nodes, InstalledCode.TYPE, 1);
        return this;
    }

    /**
     * The examples' {@code arithmetic.add_calcjob_workchain(code, x, y)}: the job {@code arithmetic.add}
     * (bash on the code's computer), then an add: x + 2y.
     */
    public Ledger addCalcJob(InstalledCode code, long x, long y) {
        launch(
                new Launcher.Launch(
                        AddCalcJobWorkChain.DEFINITION,
                        Inputs.create()
                                .put(CalcJobDefinition.CODE, code)
                                .put(AddCalcJobWorkChain.X, new IntData(x))
                                .put(AddCalcJobWorkChain.Y, new IntData(y))),
                x + 2 * y);
        count(nodes, WorkChainNode.TYPE, 1);
        count(nodes, CalcJobNode.TYPE, 1);
        count(nodes, CalcFunctionNode.TYPE, 1);
        count(nodes, IntData.TYPE, 4);
        count(nodes, RemoteData.TYPE, 1);
        count(nodes, FolderData.TYPE, 1);
        count(links, "input_work", 3);
        count(links, "call_calc", 2);
        count(links, "input_calc", 5);
        count(links, "create", 4);
        count(links, "return", 1);
        processes += 3;
        rows += 2;
        jobs += 1;
        return this;
    }

    /** {@code result} null: any (one) result. */
    private void launch(Launcher.Launch launch, Long result) {
        launches.add(launch);
        expectedResults.add(result);
    }

    private static void count(Map<String, Long> m, String key, long n) {
        m.merge(key, n, Long::sum);
    }

    /** Submits what was added since the last submit, in one batch; returns the new roots. */
    public List<ProcessNode> submit(Engine engine) {
        List<Launcher.Launch> pending = launches.subList(roots.size(), launches.size());
        List<ProcessNode> submitted = engine.launcher().submitAll(List.copyOf(pending));
        submitted.forEach(n -> roots.add(n.id()));
        return submitted;
    }

    /** Processes the run makes, roots included: their nodes. */
    public long processes() {
        return processes;
    }

    /**
     * Processes the run launches, whose rows in {@code process} the workers step through: the roots
     * and what they submit (a calcfunction a step runs inline has a node and no row).
     */
    public long rows() {
        return rows;
    }

    /** Calculation jobs the run makes. */
    public long jobs() {
        return jobs;
    }

    public int roots() {
        return roots.size();
    }

    /** Launched processes ended (finished, excepted or killed); -1 when the database did not answer. */
    public static long terminated(TestDatabase db) {
        return quietCount(db, "SELECT count(*) FROM process WHERE state IN ('finished', 'excepted', 'killed')");
    }

    /** Steps committed so far, over all processes; -1 when the database did not answer. */
    public static long steps(TestDatabase db) {
        return quietCount(db, "SELECT coalesce(sum(step), 0) FROM process");
    }

    /** Waits until every launched process has ended; fails with the state of things and {@code diagnostics}. */
    public void awaitAllTerminated(TestDatabase db, Duration timeout, Supplier<String> diagnostics) {
        awaitTerminated(db, rows, timeout, diagnostics);
    }

    /** Waits until at least {@code count} launched processes have ended. */
    public void awaitTerminated(TestDatabase db, long count, Duration timeout, Supplier<String> diagnostics) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long done;
        while ((done = terminated(db)) < count) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("after " + timeout.toSeconds() + " s " + done + " of " + rows
                        + " launched processes had ended (waited for " + count + "); " + status(db) + "\n"
                        + diagnostics.get());
            }
            HostProcess.sleep(Duration.ofMillis(100));
        }
    }

    /** Process rows by state (and paused, runnable), and the outbox's size, for failure messages. */
    public static String status(TestDatabase db) {
        try (Connection c = db.connect();
                Statement s = c.createStatement()) {
            Map<String, Long> states = group(
                    s,
                    "SELECT state || CASE WHEN paused THEN '+paused' ELSE '' END"
                            + " || CASE WHEN runnable THEN '+runnable' ELSE '' END, count(*) FROM process GROUP BY 1");
            return "process rows " + states + ", outbox " + one(s, "SELECT count(*) FROM outbox");
        } catch (SQLException e) {
            return "(no status: " + e.getMessage() + ")";
        }
    }

    /**
     * What was lost and what ran twice, counted: processes by their nodes (a process whose node is
     * missing, or there but not finished, was lost; a node beyond one clean run's, by type, ran
     * twice), and job scripts by the work directories the login node saw them run in
     * ({@code jobRuns}; empty without one). {@link #assertExactlyOnce} then holds the rest of the
     * graph to one clean run.
     */
    public Tally tally(TestDatabase db, List<String> jobRuns) throws SQLException {
        Map<String, Long> found;
        long unfinished;
        try (Connection c = db.connect();
                Statement s = c.createStatement()) {
            found = group(s, "SELECT node_type, count(*) FROM node WHERE node_type LIKE 'process.%' GROUP BY 1");
            unfinished = one(
                    s,
                    "SELECT count(*) FROM node WHERE node_type LIKE 'process.%'"
                            + " AND coalesce(attributes->>'process_state', '') <> 'finished'");
        }
        long lost = unfinished;
        long twice = 0;
        Map<String, Long> expected = new TreeMap<>(nodes);
        expected.keySet().removeIf(type -> !type.startsWith("process."));
        for (String type : union(expected.keySet(), found.keySet())) {
            long difference = found.getOrDefault(type, 0L) - expected.getOrDefault(type, 0L);
            lost += Math.max(0, -difference);
            twice += Math.max(0, difference);
        }
        long distinctRuns = new HashSet<>(jobRuns).size();
        return new Tally(processes, lost, twice, jobs, Math.max(0, jobs - distinctRuns), jobRuns.size() - distinctRuns);
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new TreeSet<>(a);
        all.addAll(b);
        return all;
    }

    /** What a run lost and ran twice, of its processes and of its job scripts: all four zero when it held. */
    public record Tally(long processes, long lost, long twice, long jobs, long jobsLost, long jobsTwice) {

        /** Fails unless nothing was lost and nothing ran twice. */
        public void assertNoneLostOrDoubled() {
            assertEquals(0, lost, "processes lost: " + this);
            assertEquals(0, twice, "processes run twice: " + this);
            assertEquals(0, jobsLost, "job scripts lost: " + this);
            assertEquals(0, jobsTwice, "job scripts run twice: " + this);
        }

        @Override
        public String toString() {
            return String.format(
                    Locale.ROOT,
                    "%d processes: %d lost, %d ran twice; %d job scripts: %d lost, %d ran twice",
                    processes,
                    lost,
                    twice,
                    jobs,
                    jobsLost,
                    jobsTwice);
        }
    }

    /**
     * Exactly once: the nodes and links by type are those of one clean run; every process row is
     * finished, every process node finished with exit 0 and sealed; each process but the roots has
     * exactly one caller; the steps committed are those of one run; the outbox is empty; and each
     * root returned its result.
     */
    public void assertExactlyOnce(TestDatabase db) throws SQLException {
        // the last steps' tasks are published (and their rows deleted) just after they commit
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (quietCount(db, "SELECT count(*) FROM outbox") != 0 && System.nanoTime() < deadline) {
            HostProcess.sleep(Duration.ofMillis(100));
        }
        try (Connection c = db.connect();
                Statement s = c.createStatement()) {
            assertEquals(
                    nodes,
                    group(s, "SELECT node_type, count(*) FROM node GROUP BY 1"),
                    "nodes by type (0 lost, 0 doubled)");
            assertEquals(
                    links, group(s, "SELECT type, count(*) FROM link GROUP BY 1"), "links by type (0 lost, 0 doubled)");
            assertEquals(
                    Map.of("finished", rows),
                    group(s, "SELECT state, count(*) FROM process GROUP BY 1"),
                    "process rows by state");
            assertEquals(
                    Map.of("finished/0/true", processes),
                    group(
                            s,
                            "SELECT concat_ws('/', attributes->>'process_state', attributes->>'exit_status',"
                                    + " attributes->>'sealed'), count(*) FROM node WHERE node_type LIKE 'process.%' GROUP BY 1"),
                    "process nodes by state/exit status/sealed");
            assertEquals(0, one(s, "SELECT count(*) FROM outbox"), "tasks left in the outbox");
        }
        try (Connection c = db.connect();
                PreparedStatement s = c.prepareStatement("SELECT count(*) FROM node n WHERE node_type LIKE 'process.%'"
                        + " AND (SELECT count(*) FROM link l WHERE l.output_id = n.id AND l.type LIKE 'call_%')"
                        + " <> CASE WHEN n.id = ANY(?) THEN 0 ELSE 1 END")) {
            s.setArray(1, c.createArrayOf("bigint", roots.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                assertEquals(0, rs.getLong(1), "processes without exactly one caller (roots: none)");
            }
        }
        Map<Long, Long> found = results(db);
        Map<Long, Long> expected = expectedResults();
        expected.replaceAll((root, value) -> value == null && found.get(root) != null ? found.get(root) : value);
        assertEquals(expected, found, "the roots' results");
    }

    private Map<Long, Long> expectedResults() {
        Map<Long, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < roots.size(); i++) {
            m.put(roots.get(i), expectedResults.get(i));
        }
        return m;
    }

    /** Each root's result: what a workflow returned, or what a calculation made, labelled {@code result}. */
    private Map<Long, Long> results(TestDatabase db) throws SQLException {
        Map<Long, Long> values = new TreeMap<>();
        try (Connection c = db.connect();
                PreparedStatement s = c.prepareStatement("SELECT l.input_id, (n.attributes->>'value')::bigint"
                        + " FROM link l JOIN node n ON n.id = l.output_id"
                        + " WHERE l.type IN ('return', 'create') AND l.label = 'result' AND l.input_id = ANY(?)")) {
            s.setArray(1, c.createArrayOf("bigint", roots.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    if (values.put(rs.getLong(1), rs.getLong(2)) != null) {
                        throw new AssertionError("root " + rs.getLong(1) + " has two results");
                    }
                }
            }
        }
        Map<Long, Long> found = new LinkedHashMap<>();
        for (long root : roots) {
            found.put(root, values.get(root));
        }
        return found;
    }

    static long quietCount(TestDatabase db, String sql) {
        try (Connection c = db.connect();
                Statement s = c.createStatement()) {
            return one(s, sql);
        } catch (SQLException e) {
            return -1;
        }
    }

    static Map<String, Long> group(Statement s, String sql) throws SQLException {
        Map<String, Long> m = new TreeMap<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                m.put(rs.getString(1), rs.getLong(2));
            }
        }
        return m;
    }

    static long one(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
