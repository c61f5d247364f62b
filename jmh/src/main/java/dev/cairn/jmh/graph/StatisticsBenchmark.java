package dev.cairn.jmh.graph;

import java.io.StringReader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.statistics.GraphStatistics;
import dev.cairn.storage.graph.statistics.Statistics;

/**
 * The statistics of {@code GET /api/v1/statistics} on a graph of {@code nodes} nodes
 * ({@code CAIRN_TEST_DB_URL}): read from the counts the database keeps, for everyone and for one of
 * five users, with {@code pending} changes not yet compacted (a busy minute of single-node stores).
 * The baseline counts the node table itself, as the statistics would without the counts: node and
 * process types and days of creation from index-only scans, process states from the attributes.
 * <p>
 * The graph, 10^6 nodes by default (small data, 100k structures, folders, 350k process nodes in
 * every state, created over a year by five users), is written once by COPY into the database
 * {@code cairn_bench_statistics_<nodes>} and kept for later runs and forks, since writing it
 * takes minutes: drop it when done ({@code dropdb cairn_bench_statistics_1000000}). It is written
 * raw, on a connection of its own rather than the pool's, so that the trigger that counts other
 * sessions' inserts counts it.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx2g"})
public class StatisticsBenchmark {

    private static final int DAYS = 30;
    private static final int USERS = 5;
    private static final int COPY_ROWS = 10_000;
    private static final String PENDING = "pending";

    @State(Scope.Benchmark)
    public static class Graph {
        @Param("1000000")
        int nodes;

        @Param({"0", "50000"})
        int pending;

        Database database;
        GraphStatistics statistics;
        String url;
        long user;

        @Setup(Level.Trial)
        public void load() throws Exception {
            String name = "cairn_bench_statistics_" + nodes;
            url = exists(name)
                    ? GraphBench.adminUrl().replaceFirst("/[^/?]+(\\?|$)", "/" + name + "$1")
                    : GraphBench.freshDatabase(name);
            database = GraphBench.open(url);
            statistics = new GraphStatistics(database);
            try (Connection c = DriverManager.getConnection(url);
                    Statement s = c.createStatement()) {
                s.execute("DELETE FROM node WHERE label = '" + PENDING + "'");
                if (count(c, "SELECT count(*) FROM node") != nodes) {
                    long t = System.nanoTime();
                    s.execute("TRUNCATE node CASCADE");
                    write(c, nodes);
                    System.out.printf("%nwrote %,d nodes in %.0f s%n", nodes, (System.nanoTime() - t) / 1e9);
                }
                s.execute("VACUUM ANALYZE node");
                user = count(c, "SELECT min(id) FROM app_user WHERE email LIKE 'bench-%'");
                statistics.compact();
                // a busy minute: one change row per stored node, as steps that store one node each leave
                s.execute("DO $$ BEGIN FOR i IN 1.." + pending + " LOOP INSERT INTO node (uuid, node_type, label,"
                        + " ctime, mtime, user_id) VALUES (gen_random_uuid(), 'data.core.int.Int.', '" + PENDING
                        + "', now(), now(), " + user + "); END LOOP; END $$");
                s.execute("VACUUM ANALYZE node_tally, node_tally_change");
            }
        }

        @TearDown(Level.Trial)
        public void check() throws Exception {
            try (Connection c = DriverManager.getConnection(url);
                    Statement s = c.createStatement()) {
                long total = count(c, "SELECT count(*) FROM node");
                Statistics read = statistics.read(null, DAYS);
                if (read.total() != total) {
                    throw new IllegalStateException(
                            "the statistics count " + read.total() + " nodes, the table " + total);
                }
                long processes = count(c, "SELECT count(*) FROM node WHERE process_type IS NOT NULL");
                if (read.processStates().values().stream()
                                .mapToLong(Long::longValue)
                                .sum()
                        != processes) {
                    throw new IllegalStateException("the statistics count other process states than " + processes
                            + " processes: " + read.processStates());
                }
                s.execute("DELETE FROM node WHERE label = '" + PENDING + "'");
            }
            statistics.compact();
            database.close();
        }
    }

    @Benchmark
    public Statistics everyone(Graph g) {
        return g.statistics.read(null, DAYS);
    }

    @Benchmark
    public Statistics oneUser(Graph g) {
        return g.statistics.read(g.user, DAYS);
    }

    /** What the statistics cost counted from the node table: four GROUP BYs, over indexes where there is one. */
    @Benchmark
    public void baselineNodeTable(Graph g, Blackhole out) throws SQLException {
        try (Connection c = g.database.connection();
                Statement s = c.createStatement()) {
            for (String query : List.of(
                    "SELECT node_type, count(*) FROM node GROUP BY 1",
                    "SELECT process_type, count(*) FROM node WHERE process_type IS NOT NULL GROUP BY 1",
                    "SELECT (ctime AT TIME ZONE 'UTC')::date, count(*) FROM node" + " WHERE ctime >= now() - interval '"
                            + DAYS + " days' GROUP BY 1",
                    "SELECT attributes ->> 'process_state', count(*) FROM node WHERE node_type LIKE 'process.%'"
                            + " GROUP BY 1")) {
                try (ResultSet r = s.executeQuery(query)) {
                    while (r.next()) {
                        out.consume(r.getLong(2));
                    }
                }
            }
        }
    }

    private static boolean exists(String database) throws SQLException {
        try (Connection c = DriverManager.getConnection(GraphBench.adminUrl());
                PreparedStatement s = c.prepareStatement("SELECT count(*) FROM pg_database WHERE datname = ?")) {
            s.setString(1, database);
            try (ResultSet r = s.executeQuery()) {
                r.next();
                return r.getLong(1) > 0;
            }
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    /** One kind of node in the mix: its share of a thousand, type, process type and attributes. */
    private record Kind(int perMille, String nodeType, String processType) {}

    private static final List<Kind> MIX = List.of(
            new Kind(150, "data.core.int.Int.", null),
            new Kind(100, "data.core.float.Float.", null),
            new Kind(80, "data.core.str.Str.", null),
            new Kind(40, "data.core.bool.Bool.", null),
            new Kind(80, "data.core.dict.Dict.", null),
            new Kind(100, GraphData.STRUCTURE, null),
            new Kind(50, "data.core.folder.FolderData.", null),
            new Kind(50, "data.core.remote.RemoteData.", null),
            new Kind(150, "process.calculation.calcfunction.CalcFunctionNode.", "arithmetic.add_function"),
            new Kind(100, "process.calculation.calcjob.CalcJobNode.", "arithmetic.add"),
            new Kind(50, "process.workflow.workchain.WorkChainNode.", "examples.sum_series"),
            new Kind(50, "process.workflow.workfunction.WorkFunctionNode.", "examples.select"));

    /** Process states as a long-lived installation has them: mostly finished. */
    private static final String[] STATES = {
        "finished",
        "finished",
        "finished",
        "finished",
        "finished",
        "finished",
        "finished",
        "excepted",
        "killed",
        "waiting"
    };

    /** Writes {@code n} nodes of the mix by COPY, created over the last year by {@value #USERS} users. */
    private static void write(Connection c, int n) throws Exception {
        List<Long> users = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            for (int u = 0; u < USERS; u++) {
                s.execute("INSERT INTO app_user (email) VALUES ('bench-" + u + "@cairn.dev')"
                        + " ON CONFLICT (email) DO NOTHING");
                users.add(count(c, "SELECT id FROM app_user WHERE email = 'bench-" + u + "@cairn.dev'"));
            }
        }
        Random rng = new Random(42);
        CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
        Instant now = Instant.now();
        StringBuilder rows = new StringBuilder();
        int inBatch = 0;
        for (int i = 0; i < n; i++) {
            Kind kind = pick(rng.nextInt(1000));
            Instant ctime = now.minus(rng.nextInt(365 * 24 * 3600), ChronoUnit.SECONDS);
            rows.append(UUID.randomUUID())
                    .append('\t')
                    .append(kind.nodeType())
                    .append('\t')
                    .append(kind.processType() == null ? "\\N" : kind.processType())
                    .append('\t')
                    .append(ctime)
                    .append('\t')
                    .append(ctime)
                    .append('\t')
                    .append(users.get(rng.nextInt(USERS)))
                    .append('\t')
                    .append(attributes(kind, rng))
                    .append('\n');
            if (++inBatch == COPY_ROWS || i == n - 1) {
                copy.copyIn(
                        "COPY node (uuid, node_type, process_type, ctime, mtime, user_id, attributes) FROM STDIN",
                        new StringReader(rows.toString()));
                rows.setLength(0);
                inBatch = 0;
            }
        }
    }

    private static Kind pick(int perMille) {
        int sum = 0;
        for (Kind k : MIX) {
            sum += k.perMille();
            if (perMille < sum) {
                return k;
            }
        }
        return MIX.getLast();
    }

    private static String attributes(Kind kind, Random rng) {
        if (kind.nodeType().equals(GraphData.STRUCTURE)) {
            return GraphData.structure(rng);
        }
        if (kind.processType() != null) {
            String state = STATES[rng.nextInt(STATES.length)];
            boolean paused = state.equals("waiting") && rng.nextInt(10) == 0;
            return "{\"process_state\": \"" + state + "\", \"exit_status\": 0, \"sealed\": " + !state.equals("waiting")
                    + (paused ? ", \"paused\": true" : "") + "}";
        }
        return "{\"value\": " + rng.nextInt() + "}";
    }
}
