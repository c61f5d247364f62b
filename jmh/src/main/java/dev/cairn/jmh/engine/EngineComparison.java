package dev.cairn.jmh.engine;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Files;
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
import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.events.EventFilter;
import dev.cairn.engine.events.Subscription;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.engine.testing.WorkerMain;
import dev.cairn.examples.AddCalcJobWorkChain;
import dev.cairn.examples.AddMultiply;
import dev.cairn.examples.Arithmetic;
import dev.cairn.examples.ArithmeticAddJob;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.graph.CachingExtras;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;

/**
 * The engine benchmark, Cairn's side: W worker JVMs; N work chains submitted in batches;
 * processes per hour from the first submit to the last work chain finished (three processes
 * per work chain). Then, on the idle system, K single work chains, each timed from submit to
 * the broadcast of its finish. Prints one JSON line. Two workloads:
 * <ul>
 * <li>{@code functions} (the default): {@link AddMultiply}, (x + y) * z through two calcfunctions
 * run inside the work chain's one step;</li>
 * <li>{@code calcjobs}: {@link AddCalcJobWorkChain}, the AiiDA 1.0 paper's work chain: the bash
 * job {@link ArithmeticAddJob} adds x and y on a computer "localhost" (local transport, direct
 * scheduler, {@code minimum_job_poll_interval} 0.1 s, work directories under
 * {@code --workdir}), then a calcfunction adds y again.</li>
 * </ul>
 * With {@code --caching} the workers cache {@code arithmetic.add} and
 * {@code arithmetic.add_function}; after the latency phase the N work chains of the throughput
 * phase (which filled the cache) are submitted again with the same inputs, and the line gets
 * that second round's time, the speedup over the first, the cache hits and the work
 * directories it created (there must be none).
 * <pre>
 * java -cp jmh/target/benchmarks.jar dev.cairn.jmh.engine.EngineComparison --workers 2 --n 400 \
 *     --latency-samples 20 --db-url JDBC_URL --amqp-uri AMQP_URI [--slots 4] \
 *     [--workload functions|calcjobs] [--workdir DIR] [--caching]
 * </pre>
 * The database should be empty (a fresh one per run) and the virtual host fresh too. The
 * warm-up, throughput and latency phases give their work chains different inputs, so with
 * caching on nothing but the second round (and the warm-up's own second pass) can hit the cache.
 */
public final class EngineComparison {

    /** Caching patterns of the workers under --caching: the job and the calcfunction, not the work chains. */
    static final String CACHED_TYPES = ArithmeticAddJob.DEFINITION.entryPoint() + "," + Arithmetic.ADD.entryPoint();

    // the first input x of each phase's work chains; the throughput phase (and the caching round) start at 0
    private static final long WARM_UP_X = 1_000_000;
    private static final long LATENCY_X = 2_000_000;

    private EngineComparison() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> o = options(args);
        int workers = Integer.parseInt(o.getOrDefault("workers", "1"));
        int n = Integer.parseInt(o.getOrDefault("n", "400"));
        int samples = Integer.parseInt(o.getOrDefault("latency-samples", "20"));
        int slots = Integer.parseInt(o.getOrDefault("slots", "4"));
        String workloadName = o.getOrDefault("workload", "functions");
        boolean caching = Boolean.parseBoolean(o.getOrDefault("caching", "false"));
        String dbUrl = require(o, "db-url");
        String amqpUri = require(o, "amqp-uri");

        Path store = null;
        Path workdir = null;
        if (workloadName.equals("calcjobs")) {
            // the jobs' retrieved files go to the object store; their work directories under workdir/jobs
            Path base = o.containsKey("workdir")
                    ? Path.of(o.get("workdir"))
                    : Files.createTempDirectory("cairn-compare-calcjobs");
            store = base.resolve("objects");
            workdir = base.resolve("jobs");
            Files.createDirectories(workdir);
            Container.init(store, ContainerConfig.defaults()).close();
        } else if (!workloadName.equals("functions")) {
            throw new IllegalArgumentException("--workload is functions or calcjobs, got '" + workloadName + "'");
        } else if (caching) {
            // the functions work chain's multiply is not among the cached types: its round could not be all hits
            throw new IllegalArgumentException("--caching goes with --workload calcjobs");
        }

        Engine engine = Engine.open(new Engine.Config(
                DatabaseConfig.of(dbUrl).withPoolSize(4),
                amqpUri,
                "cairn",
                store,
                PluginRegistry.load(EngineComparison.class.getClassLoader()),
                CachingPolicy.OFF));
        List<Process> jvms = new ArrayList<>();
        try {
            EngineWorkload workload =
                    workdir == null ? new EngineWorkload.Functions() : EngineWorkload.CalcJobs.create(engine, workdir);
            List<String> workerOptions = new ArrayList<>();
            if (store != null) {
                workerOptions.addAll(List.of("--store", store.toString()));
            }
            if (caching) {
                workerOptions.addAll(List.of("--caching", CACHED_TYPES));
            }
            for (int i = 0; i < workers; i++) {
                jvms.add(startWorker(dbUrl, amqpUri, slots, i, workerOptions));
            }
            warmUp(engine, workload, workers, caching);
            Map<String, Object> result = new LinkedHashMap<>();
            result.put("system", "cairn");
            result.put("workload", workloadName);
            result.put("workers", workers);
            result.put("slots", slots);
            result.put("n", n);
            result.put("processes", 3 * n);
            Round first = throughput(engine, workload, n, result);
            latency(engine, workload, samples, result);
            if (caching) {
                cachingRound(engine, workload, n, first, result);
            }
            System.out.println(JsonCodec.write(result));
        } finally {
            for (Process p : jvms) {
                p.destroy();
            }
            for (Process p : jvms) {
                p.waitFor(30, TimeUnit.SECONDS);
            }
            engine.close();
        }
    }

    private static Process startWorker(String dbUrl, String amqpUri, int slots, int index, List<String> options)
            throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-Xmx512m"));
        // CAIRN_WORKER_JAVA_OPTS: more options for the worker JVMs (a profiler, a GC), split at spaces
        String extra = System.getenv("CAIRN_WORKER_JAVA_OPTS");
        if (extra != null && !extra.isBlank()) {
            command.addAll(List.of(extra.trim().split("\\s+")));
        }
        command.addAll(List.of(
                "-cp",
                System.getProperty("java.class.path"),
                WorkerMain.class.getName(),
                "--db-url",
                dbUrl,
                "--amqp-uri",
                amqpUri,
                "--slots",
                Integer.toString(slots)));
        command.addAll(options);
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectError(ProcessBuilder.Redirect.appendTo(
                new File(System.getProperty("java.io.tmpdir"), "cairn-engine-worker-" + index + ".log")));
        Process p = pb.start();
        var out = new BufferedReader(new InputStreamReader(p.getInputStream()));
        // a profiler or the JVM may print before the worker does
        String line = out.readLine();
        while (line != null && !line.startsWith("cairn worker ready") && line.startsWith("[")) {
            line = out.readLine();
        }
        if (line == null || !line.startsWith("cairn worker ready")) {
            // a worker left running would take the tasks of later runs
            p.destroyForcibly();
            throw new IllegalStateException(
                    "worker " + index + " did not start (see the log in java.io.tmpdir): " + line);
        }
        Thread.ofVirtual().start(() -> {
            try {
                while (out.readLine() != null) {
                    // drain
                }
            } catch (IOException ignored) {
                // the worker is gone
            }
        });
        return p;
    }

    /**
     * Each worker JVM compiles its own code, so each gets the workload's warm-up. With caching
     * on, the same work chains run a second time, all from the cache: the caching round measures
     * that path, and a worker that has run for a while has compiled it too.
     */
    private static void warmUp(Engine engine, EngineWorkload workload, int workers, boolean caching) throws Exception {
        for (int round = 0; round < (caching ? 2 : 1); round++) {
            List<Launcher.Launch> launches = new ArrayList<>();
            for (int i = 0; i < workload.warmUps() * workers; i++) {
                launches.add(workload.launch(WARM_UP_X + i));
            }
            List<ProcessNode> nodes = engine.launcher().submitAll(launches);
            waitFinished(engine, nodes.getFirst().id(), nodes.getLast().id(), nodes.size());
        }
    }

    /** The work chains of one throughput round: their id range and how long they took. */
    private record Round(long first, long last, double submitSeconds, double wallSeconds) {}

    /** Submits the work chains with x = 0 .. n-1 in batches of 100 and waits for all of them to terminate. */
    private static Round submitRound(Engine engine, EngineWorkload workload, int n) throws Exception {
        long t0 = System.nanoTime();
        List<ProcessNode> all = new ArrayList<>(n);
        int batch = 100;
        for (int from = 0; from < n; from += batch) {
            List<Launcher.Launch> launches = new ArrayList<>();
            for (int i = from; i < Math.min(n, from + batch); i++) {
                launches.add(workload.launch(i));
            }
            all.addAll(engine.launcher().submitAll(launches));
        }
        double submitted = (System.nanoTime() - t0) / 1e9;
        waitFinished(engine, all.getFirst().id(), all.getLast().id(), n);
        double wall = (System.nanoTime() - t0) / 1e9;
        return new Round(all.getFirst().id(), all.getLast().id(), submitted, wall);
    }

    private static Round throughput(Engine engine, EngineWorkload workload, int n, Map<String, Object> result)
            throws Exception {
        Round round = submitRound(engine, workload, n);
        long wrong = workload.wrongResults(engine, round.first(), round.last());
        result.put("submit_seconds", round(round.submitSeconds()));
        result.put("wall_seconds", round(round.wallSeconds()));
        result.put("processes_per_hour", Math.round(3 * n / round.wallSeconds() * 3600));
        result.put("all_ok", wrong == 0 && workload.processesOk(engine, round.first(), 3L * n, result));
        return round;
    }

    private static void latency(Engine engine, EngineWorkload workload, int samples, Map<String, Object> result)
            throws Exception {
        Map<Long, CountDownLatch> finished = new ConcurrentHashMap<>();
        Map<Long, Long> finishedAt = new ConcurrentHashMap<>();
        double[] ms = new double[samples];
        try (Subscription sub = engine.subscribe(EventFilter.into(ProcessState.FINISHED), change -> {
            long pid = change.processId();
            finishedAt.put(pid, System.nanoTime());
            CountDownLatch l = finished.computeIfAbsent(pid, k -> new CountDownLatch(1));
            l.countDown();
        })) {
            Thread.sleep(300);
            for (int i = 0; i < samples; i++) {
                long start = System.nanoTime();
                Launcher.Launch launch = workload.launch(LATENCY_X + i);
                ProcessNode node = engine.launcher().submit(launch.definition(), launch.inputs());
                CountDownLatch l = finished.computeIfAbsent(node.id(), k -> new CountDownLatch(1));
                if (!l.await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("work chain " + node.id() + " did not finish within 30 s");
                }
                ms[i] = (finishedAt.get(node.id()) - start) / 1e6;
                Thread.sleep(20);
            }
        }
        Arrays.sort(ms);
        result.put("latency_median_ms", round(ms[ms.length / 2]));
        result.put("latency_p99_ms", round(ms[Math.min(ms.length - 1, (int) Math.ceil(ms.length * 0.99) - 1)]));
    }

    /**
     * The throughput phase's n work chains again, same inputs: with the cache filled, their
     * job and calcfunction are copies from the cache. Counts the work directories the round
     * created (none, if every job came from the cache) and the cache hits by type.
     */
    private static void cachingRound(
            Engine engine, EngineWorkload workload, int n, Round first, Map<String, Object> result) throws Exception {
        long workdirsBefore = workload.workdirs();
        Round second = submitRound(engine, workload, n);
        long newWorkdirs = workload.workdirs() - workdirsBefore;
        long wrong = workload.wrongResults(engine, second.first(), second.last());
        Map<String, Object> checks = new LinkedHashMap<>();
        boolean processesOk = workload.processesOk(engine, second.first(), 3L * n, checks);
        Map<String, Long> hits = cacheHits(engine, second.first());
        result.put("cache_first_s", round(first.wallSeconds()));
        result.put("cache_second_s", round(second.wallSeconds()));
        result.put("cache_second_submit_s", round(second.submitSeconds()));
        result.put("cache_speedup", round(first.wallSeconds() / second.wallSeconds()));
        result.put("cache_new_workdirs", newWorkdirs);
        result.put("cache_hits", hits);
        boolean ok = wrong == 0
                && processesOk
                && newWorkdirs == 0
                && hits.values().stream().mapToLong(Long::longValue).sum() == 2L * n;
        result.put("cache_all_ok", ok);
        result.put("all_ok", Boolean.TRUE.equals(result.get("all_ok")) && ok);
    }

    /** Calculation nodes from id {@code from} on that were made from the cache, by entry point. */
    private static Map<String, Long> cacheHits(Engine engine, long from) throws SQLException {
        Map<String, Long> hits = new LinkedHashMap<>();
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement("SELECT process_type, count(*) FROM node WHERE id >= ?"
                        + " AND node_type LIKE 'process.calculation.%' AND extras ->> ? IS NOT NULL"
                        + " GROUP BY process_type ORDER BY process_type")) {
            s.setLong(1, from);
            s.setString(2, CachingExtras.CACHED_FROM);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    hits.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        return hits;
    }

    /**
     * Polls every 20 ms until the work chains first..last (ids) have all terminated. Each poll asks
     * only for the oldest 64 not yet seen terminated, by key: they finish about in the order they
     * were submitted, and asking for all of them each time cost the server milliseconds per poll.
     */
    private static void waitFinished(Engine engine, long first, long last, int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
        List<Long> pending = roots(engine, first, last);
        if (pending.size() != count) {
            throw new IllegalStateException(
                    "expected " + count + " work chains in " + first + ".." + last + ", found " + pending.size());
        }
        while (System.nanoTime() < deadline) {
            List<Long> oldest = pending.subList(0, Math.min(64, pending.size()));
            List<Long> running = stillRunning(engine, oldest);
            oldest.retainAll(running);
            if (pending.isEmpty()) {
                return;
            }
            if (!running.isEmpty()) {
                Thread.sleep(20);
            }
        }
        throw new IllegalStateException(
                pending.size() + " of the work chains " + first + ".." + last + " did not finish in 30 minutes");
    }

    private static List<Long> roots(Engine engine, long first, long last) throws SQLException {
        return ids(engine, "SELECT node_id FROM process WHERE node_id BETWEEN ? AND ? AND parent_id IS NULL", s -> {
            s.setLong(1, first);
            s.setLong(2, last);
        });
    }

    private static List<Long> stillRunning(Engine engine, List<Long> ids) throws SQLException {
        return ids(
                engine,
                "SELECT node_id FROM process WHERE node_id = ANY(?)"
                        + " AND state NOT IN ('finished', 'excepted', 'killed')",
                s -> s.setArray(1, s.getConnection().createArrayOf("bigint", ids.toArray())));
    }

    private interface Binder {
        void bind(PreparedStatement s) throws SQLException;
    }

    private static List<Long> ids(Engine engine, String sql, Binder binder) throws SQLException {
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement(sql)) {
            binder.bind(s);
            List<Long> ids = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    ids.add(rs.getLong(1));
                }
            }
            return ids;
        }
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }

    /** --name value pairs; an option followed by another option (or by nothing) is a flag and reads "true". */
    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --option [value], got " + args[i]);
            }
            boolean flag = i + 1 == args.length || args[i + 1].startsWith("--");
            o.put(args[i].substring(2), flag ? "true" : args[++i]);
        }
        return o;
    }

    private static String require(Map<String, String> o, String name) {
        String v = o.get(name);
        if (v == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return v;
    }
}
