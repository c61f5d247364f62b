package dev.cairn.jmh.engine;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import dev.cairn.engine.Engine;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.engine.process.Inputs;
import dev.cairn.examples.AddMultiply;
import dev.cairn.jmh.graph.GraphBench;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.IntData;

/**
 * The engine's hot path without the broker: {@code Launcher.run} of one
 * {@code arithmetic.add_multiply} work chain (a launch transaction, then one step that
 * runs two calcfunctions and commits), against the raw database cost of the same rows in
 * two bare transactions (4 nodes, 3 links, a process row and an outbox row; then the row
 * lock, 4 nodes, 9 links, the state update and the process update). The ratio is what
 * validation, hashing, checkpoints, COPY and the rules cost on top of PostgreSQL. The
 * database does not wait for the disk at commit (synchronous_commit off), on both sides.
 * Needs {@code CAIRN_TEST_DB_URL}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@State(Scope.Benchmark)
public class StepBenchmark {

    private static final String DB = "cairn_jmh_step";

    private Engine engine;
    private long user;
    private long next;

    @Setup(Level.Trial)
    public void open() throws Exception {
        String url = GraphBench.freshDatabase(GraphBench.adminUrl(), DB);
        // Both sides commit twice; the disk's flush time, larger than a step's work and varying from
        // minute to minute on a shared disk, would drown what differs, so neither waits for it.
        try (Connection c = DriverManager.getConnection(url);
                Statement s = c.createStatement()) {
            s.execute("ALTER DATABASE " + DB + " SET synchronous_commit = off");
        }
        engine = Engine.open(new Engine.Config(
                DatabaseConfig.of(url).withPoolSize(2),
                null,
                "cairn",
                null,
                PluginRegistry.load(StepBenchmark.class.getClassLoader())));
        try (Connection c = engine.database().connection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT min(id) FROM app_user")) {
            rs.next();
            user = rs.getLong(1);
        }
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        engine.close();
        GraphBench.dropDatabase(DB);
    }

    @Benchmark
    public Object runWorkChain() {
        long x = next++;
        return engine.launcher()
                .run(
                        AddMultiply.DEFINITION,
                        Inputs.of(
                                AddMultiply.X,
                                new IntData(x),
                                AddMultiply.Y,
                                new IntData(1),
                                AddMultiply.Z,
                                new IntData(2)));
    }

    private static final String NODES = "INSERT INTO node (uuid, node_type, process_type, ctime, mtime, user_id,"
            + " attributes, hash) SELECT u, t, p, now(), now(), ?, a::jsonb, h FROM unnest(?::uuid[], ?::text[], ?::text[],"
            + " ?::text[], ?::text[]) AS r(u, t, p, a, h) RETURNING id";
    private static final String LINKS = "INSERT INTO link (input_id, output_id, type, label) SELECT * FROM"
            + " unnest(?::bigint[], ?::bigint[], ?::text[], ?::text[])";
    private static final String HASH = "0".repeat(64);
    private static final String INT = "data.core.int.Int.";
    private static final String CALC = "process.calculation.calcfunction.CalcFunctionNode.";

    @Benchmark
    public long bareRows() throws Exception {
        try (Connection c = engine.database().connection()) {
            c.setAutoCommit(false);
            long[] launch = nodes(
                    c,
                    new String[] {"process.workflow.workchain.WorkChainNode.", INT, INT, INT},
                    new String[] {"arithmetic.add_multiply", null, null, null},
                    new String[] {"{\"process_state\":\"created\"}", "{\"value\":1}", "{\"value\":1}", "{\"value\":2}"
                    });
            long wc = launch[0];
            links(
                    c,
                    new long[] {launch[1], launch[2], launch[3]},
                    new long[] {wc, wc, wc},
                    new String[] {"input_work", "input_work", "input_work"},
                    new String[] {"x", "y", "z"});
            try (Statement s = c.createStatement()) {
                s.execute("INSERT INTO process (node_id, entry_point, state) VALUES (" + wc
                        + ", 'arithmetic.add_multiply', 'created')");
                s.execute("INSERT INTO outbox (process_id, step) VALUES (" + wc + ", 0)");
            }
            c.commit();

            try (Statement s = c.createStatement()) {
                s.execute("DELETE FROM outbox WHERE process_id = " + wc);
                s.executeQuery("SELECT * FROM process WHERE node_id = " + wc + " FOR UPDATE")
                        .close();
            }
            long[] step = nodes(
                    c,
                    new String[] {CALC, INT, CALC, INT},
                    new String[] {"arithmetic.add_function", null, "arithmetic.multiply", null},
                    new String[] {"{\"sealed\":true}", "{\"value\":2}", "{\"sealed\":true}", "{\"value\":4}"});
            links(
                    c,
                    new long[] {launch[1], launch[2], step[0], step[1], launch[3], step[2], wc, wc, wc},
                    new long[] {step[0], step[0], step[1], step[2], step[2], step[3], step[0], step[2], step[3]},
                    new String[] {
                        "input_calc",
                        "input_calc",
                        "create",
                        "input_calc",
                        "input_calc",
                        "create",
                        "call_calc",
                        "call_calc",
                        "return"
                    },
                    new String[] {"x", "y", "result", "x", "y", "result", "CALL", "CALL", "result"});
            try (Statement s = c.createStatement()) {
                s.execute(
                        "UPDATE node SET attributes = '{\"process_state\":\"finished\",\"sealed\":true}', mtime = now()"
                                + " WHERE id = " + wc);
                s.execute("UPDATE process SET step = 1, state = 'finished', runnable = false WHERE node_id = " + wc);
            }
            c.commit();
            return wc;
        }
    }

    private long[] nodes(Connection c, String[] types, String[] processTypes, String[] attributes) throws Exception {
        UUID[] uuids = new UUID[types.length];
        String[] hashes = new String[types.length];
        for (int i = 0; i < types.length; i++) {
            uuids[i] = UUID.randomUUID();
            hashes[i] = HASH;
        }
        try (PreparedStatement s = c.prepareStatement(NODES)) {
            s.setLong(1, user);
            s.setArray(2, c.createArrayOf("uuid", uuids));
            s.setArray(3, c.createArrayOf("text", types));
            s.setArray(4, c.createArrayOf("text", processTypes));
            s.setArray(5, c.createArrayOf("text", attributes));
            s.setArray(6, c.createArrayOf("text", hashes));
            long[] ids = new long[types.length];
            try (ResultSet rs = s.executeQuery()) {
                for (int i = 0; rs.next(); i++) {
                    ids[i] = rs.getLong(1);
                }
            }
            return ids;
        }
    }

    private static void links(Connection c, long[] in, long[] out, String[] types, String[] labels) throws Exception {
        Long[] ins = Arrays.stream(in).boxed().toArray(Long[]::new);
        Long[] outs = Arrays.stream(out).boxed().toArray(Long[]::new);
        try (PreparedStatement s = c.prepareStatement(LINKS)) {
            s.setArray(1, c.createArrayOf("bigint", ins));
            s.setArray(2, c.createArrayOf("bigint", outs));
            s.setArray(3, c.createArrayOf("text", types));
            s.setArray(4, c.createArrayOf("text", labels));
            s.execute();
        }
    }
}
