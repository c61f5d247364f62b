package dev.cairn.jmh.engine;

import java.io.File;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.cairn.engine.Engine;
import dev.cairn.engine.broker.Broadcasts;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.worker.WorkerMain;
import dev.cairn.examples.AddMultiply;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ProcessNode;

/**
 * The engine benchmark, Cairn's side: W worker JVMs; N work chains of
 * {@link AddMultiply} ((x + y) * z through two calcfunctions, three processes each)
 * submitted in batches; processes per hour from the first submit to the last process
 * finished. Then, on the idle system, K single work chains, each timed from submit to the
 * broadcast of its finish. Prints one JSON line.
 * <pre>
 * java -cp jmh/target/benchmarks.jar dev.cairn.jmh.engine.EngineComparison --workers 2 --n 400 \
 *     --latency-samples 20 --db-url JDBC_URL --amqp-uri AMQP_URI [--slots 4]
 * </pre>
 * The database should be empty (a fresh one per run) and the virtual host fresh too.
 */
public final class EngineComparison {

    private EngineComparison() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = options(args);
        int workers = Integer.parseInt(o.getOrDefault("workers", "1"));
        int n = Integer.parseInt(o.getOrDefault("n", "400"));
        int samples = Integer.parseInt(o.getOrDefault("latency-samples", "20"));
        int slots = Integer.parseInt(o.getOrDefault("slots", "4"));
        String dbUrl = require(o, "db-url");
        String amqpUri = require(o, "amqp-uri");

        Engine engine = Engine.open(new Engine.Config(DatabaseConfig.of(dbUrl).withPoolSize(4), amqpUri, "cairn", null,
            PluginRegistry.load(EngineComparison.class.getClassLoader())));
        List<Process> jvms = new ArrayList<>();
        try {
            for (int i = 0; i < workers; i++)
                jvms.add(startWorker(dbUrl, amqpUri, slots, i));
            warmUp(engine);
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("system", "cairn");
            result.put("workers", workers);
            result.put("slots", slots);
            result.put("n", n);
            result.put("processes", 3 * n);
            throughput(engine, n, result);
            latency(engine, samples, result);
            System.out.println(JsonCodec.write(result));
        } finally {
            for (Process p : jvms)
                p.destroy();
            for (Process p : jvms)
                p.waitFor(30, TimeUnit.SECONDS);
            engine.close();
        }
    }

    private static Process startWorker(String dbUrl, String amqpUri, int slots, int index) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
            WorkerMain.class.getName(), "--db-url", dbUrl, "--amqp-uri", amqpUri, "--slots", Integer.toString(slots));
        pb.redirectError(ProcessBuilder.Redirect.appendTo(new File(System.getProperty("java.io.tmpdir"),
            "cairn-engine-worker-" + index + ".log")));
        Process p = pb.start();
        var out = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream()));
        String line = out.readLine();
        if (line == null || !line.startsWith("cairn worker ready"))
            throw new IllegalStateException("worker " + index + " did not start (see the log in java.io.tmpdir): " + line);
        Thread.ofVirtual().start(() -> {
            try {
                while (out.readLine() != null) {
                    // drain
                }
            } catch (java.io.IOException ignored) {
                // the worker is gone
            }
        });
        return p;
    }

    private static Inputs inputs(long i) {
        return Inputs.of(AddMultiply.X, new IntData(i), AddMultiply.Y, new IntData(1), AddMultiply.Z, new IntData(2));
    }

    private static void warmUp(Engine engine) throws Exception {
        List<Launcher.Launch> launches = new ArrayList<>();
        for (int i = 0; i < 200; i++)
            launches.add(new Launcher.Launch(AddMultiply.DEFINITION, inputs(i)));
        List<ProcessNode> nodes = engine.launcher().submitAll(launches);
        waitFinished(engine, nodes.getFirst().id(), nodes.getLast().id(), nodes.size());
    }

    private static void throughput(Engine engine, int n, Map<String, Object> result) throws Exception {
        long t0 = System.nanoTime();
        List<ProcessNode> all = new ArrayList<>(n);
        int batch = 100;
        for (int from = 0; from < n; from += batch) {
            List<Launcher.Launch> launches = new ArrayList<>();
            for (int i = from; i < Math.min(n, from + batch); i++)
                launches.add(new Launcher.Launch(AddMultiply.DEFINITION, inputs(i)));
            all.addAll(engine.launcher().submitAll(launches));
        }
        double submitted = (System.nanoTime() - t0) / 1e9;
        waitFinished(engine, all.getFirst().id(), all.getLast().id(), n);
        double wall = (System.nanoTime() - t0) / 1e9;
        long wrong = wrongResults(engine, all.getFirst().id(), all.getLast().id());
        result.put("submit_seconds", round(submitted));
        result.put("wall_seconds", round(wall));
        result.put("processes_per_hour", Math.round(3 * n / wall * 3600));
        result.put("all_ok", wrong == 0);
    }

    private static void latency(Engine engine, int samples, Map<String, Object> result) throws Exception {
        Map<Long, CountDownLatch> finished = new ConcurrentHashMap<>();
        Map<Long, Long> finishedAt = new ConcurrentHashMap<>();
        Broadcasts broadcasts = engine.broadcasts();
        double[] ms = new double[samples];
        try (Broadcasts.Subscription sub = broadcasts.subscribe("state.*.finished", (key, body) -> {
            long pid = ((Number) body.get("process")).longValue();
            finishedAt.put(pid, System.nanoTime());
            CountDownLatch l = finished.computeIfAbsent(pid, k -> new CountDownLatch(1));
            l.countDown();
        })) {
            Thread.sleep(300);
            for (int i = 0; i < samples; i++) {
                long start = System.nanoTime();
                ProcessNode node = engine.launcher().submit(AddMultiply.DEFINITION, inputs(i));
                CountDownLatch l = finished.computeIfAbsent(node.id(), k -> new CountDownLatch(1));
                if (!l.await(30, TimeUnit.SECONDS))
                    throw new IllegalStateException("work chain " + node.id() + " did not finish within 30 s");
                ms[i] = (finishedAt.get(node.id()) - start) / 1e6;
                Thread.sleep(50);
            }
        }
        Arrays.sort(ms);
        result.put("latency_median_ms", round(ms[ms.length / 2]));
        result.put("latency_p99_ms", round(ms[Math.min(ms.length - 1, (int) Math.ceil(ms.length * 0.99) - 1)]));
    }

    /** Waits until the {@code count} work chains with ids in [first, last] have terminated. */
    private static void waitFinished(Engine engine, long first, long last, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (terminated(engine, first, last) >= count)
                return;
            Thread.sleep(20);
        }
        throw new IllegalStateException("work chains " + first + ".." + last + " did not all finish in 30 minutes");
    }

    private static long terminated(Engine engine, long first, long last) throws SQLException {
        try (Connection c = engine.database().connection();
             PreparedStatement s = c.prepareStatement("SELECT count(*) FROM process WHERE node_id BETWEEN ? AND ?"
                 + " AND parent_id IS NULL AND state IN ('finished', 'excepted', 'killed')")) {
            s.setLong(1, first);
            s.setLong(2, last);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** Work chains in the range that did not finish ok with (x + 1) * 2. */
    private static long wrongResults(Engine engine, long first, long last) throws SQLException {
        try (Connection c = engine.database().connection();
             PreparedStatement s = c.prepareStatement("""
                 SELECT count(*) FROM process p JOIN node w ON w.id = p.node_id
                 LEFT JOIN link lx ON lx.output_id = w.id AND lx.label = 'x' LEFT JOIN node x ON x.id = lx.input_id
                 LEFT JOIN link lr ON lr.input_id = w.id AND lr.type = 'return' LEFT JOIN node r ON r.id = lr.output_id
                 WHERE p.node_id BETWEEN ? AND ? AND p.parent_id IS NULL
                   AND (p.state <> 'finished' OR (w.attributes->>'exit_status')::int <> 0
                        OR (r.attributes->>'value')::bigint IS DISTINCT FROM ((x.attributes->>'value')::bigint + 1) * 2)
                 """)) {
            s.setLong(1, first);
            s.setLong(2, last);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--"))
                throw new IllegalArgumentException("expected --option value, got " + args[i]);
            o.put(args[i].substring(2), args[i + 1]);
        }
        return o;
    }

    private static String require(Map<String, String> o, String name) {
        String v = o.get(name);
        if (v == null)
            throw new IllegalArgumentException("--" + name + " is required");
        return v;
    }
}
