package dev.cairn.jmh.server;

import static dev.cairn.jmh.server.LoadFigures.concat;
import static dev.cairn.jmh.server.LoadFigures.log;
import static dev.cairn.jmh.server.LoadFigures.ms;
import static dev.cairn.jmh.server.LoadFigures.round;
import static dev.cairn.jmh.server.LoadFigures.stats;

import java.io.File;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The server under load, measured from the outside as a client sees it. Against a server with
 * the role api alone (its processes wait for a worker):
 * <ol>
 * <li>submits N work chains ({@code arithmetic.add_multiply}) in one batch request, timed;</li>
 * <li>opens one event stream per process ({@code ?process=}) and W streams of every process,
 * timed, and reads the server's live thread count with them open;</li>
 * <li>starts the worker ({@code --worker-command}, a JVM of the same server jar with the role
 * worker) and reads every stream until each has every state change it asked for: the
 * per-process streams their process's moves, the W others every move of the run. Each event's
 * delay is the time it was read minus the time in its data (when the step wrote the change,
 * the database's clock, on this machine). It checks that no stream got a change twice or
 * missed one (against {@code GET /api/v1/processes}: every process finished);</li>
 * <li>times R more batches of N on the idle server (each after the previous one has run);</li>
 * <li>C clients each sending requests for T seconds (a page of the list, one process), for
 * throughput and latency under concurrency.</li>
 * </ol>
 * Prints what it measured, and one JSON line last.
 * <pre>
 * java -cp jmh/target/benchmarks.jar dev.cairn.jmh.server.EventStreamLoad --url http://127.0.0.1:8080 \
 *     --token-file DATA/admin-token --worker-command "java -jar cairn-server.jar --cairn.roles=worker ..." \
 *     [--n 1000] [--watchers 50] [--batches 5] [--clients 200] [--seconds 10] [--throughput-n 2000]
 *     [--phases streams,batches,concurrency|open|throughput]
 * </pre>
 * Without the streams phase no worker is started: batches then wait for none.
 * {@code jmh/server-load.sh} starts the servers and runs it.
 */
public final class EventStreamLoad {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final ServerClient server;

    private EventStreamLoad(ServerClient server) {
        this.server = server;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> o = options(args);
        String token = Files.readString(Path.of(required(o, "token-file"))).strip();
        EventStreamLoad load = new EventStreamLoad(new ServerClient(required(o, "url"), token));
        int n = Integer.parseInt(o.getOrDefault("n", "1000"));
        int watchers = Integer.parseInt(o.getOrDefault("watchers", "50"));
        int batches = Integer.parseInt(o.getOrDefault("batches", "5"));
        int clients = Integer.parseInt(o.getOrDefault("clients", "200"));
        int seconds = Integer.parseInt(o.getOrDefault("seconds", "10"));
        Map<String, Object> result = new LinkedHashMap<>();
        Set<String> phases =
                Set.of(o.getOrDefault("phases", "streams,batches,concurrency").split(","));
        Process worker = null;
        try {
            if (phases.contains("open")) {
                for (EventStreamReader s : load.openStreams(load.submitBatch(n, 0), watchers, result)) {
                    s.close();
                }
            }
            if (phases.contains("streams")) {
                worker = load.run(n, watchers, required(o, "worker-command"), result);
            }
            if (phases.contains("throughput")) {
                if (worker == null && o.containsKey("worker-command")) {
                    worker = load.startWorker(o.get("worker-command"));
                } // else the server runs the worker role itself
                new RestThroughput(load.server)
                        .measure(Integer.parseInt(o.getOrDefault("throughput-n", "2000")), result);
            }
            if (phases.contains("batches")) {
                load.batches(n, batches, worker != null, result);
            }
            if (phases.contains("concurrency")) {
                load.concurrency(clients, seconds, result);
            }
        } finally {
            if (worker != null) {
                worker.destroy();
                if (!worker.waitFor(60, TimeUnit.SECONDS)) {
                    worker.destroyForcibly();
                }
            }
        }
        System.out.println(JSON.writeValueAsString(result));
    }

    /** The streams phase; returns the worker it started, which runs the batches that follow too. */
    private Process run(int n, int watchers, String workerCommand, Map<String, Object> result) throws Exception {
        log("submitting %d work chains in one batch (no worker yet)", n);
        long t0 = System.nanoTime();
        List<String> processes = submitBatch(n, 0);
        double firstBatchMs = ms(System.nanoTime() - t0);
        log("batch of %d answered in %.0f ms", n, firstBatchMs);
        result.put("first_batch_ms", round(firstBatchMs));

        List<EventStreamReader> streams = openStreams(processes, watchers, result);

        Process worker = startWorker(workerCommand);
        long runStart = System.nanoTime();
        try {
            // every process stream ends with its process's terminal move; every other stream sees all of them
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(15);
            for (EventStreamReader s : streams) {
                if (!s.done.await(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    throw new IllegalStateException("a stream" + s.query + " did not see the end of the run: "
                            + s.ids.size() + " events; worker log " + workerLog);
                }
            }
        } finally {
            double runMs = ms(System.nanoTime() - runStart);
            result.put("run_ms", round(runMs));
            log("run over after %.0f ms (worker JVM start included)", runMs);
        }
        // no process stream got a change of another process, none got one twice
        Set<Long> everything = ConcurrentHashMap.newKeySet();
        long deliveries = 0;
        for (EventStreamReader s : streams) {
            if (s.duplicates.get() > 0) {
                throw new IllegalStateException("stream" + s.query + " got " + s.duplicates + " changes twice");
            }
            if (!s.all && s.foreign.get() > 0) {
                throw new IllegalStateException("stream" + s.query + " got changes of other processes");
            }
            deliveries += s.ids.size();
            if (!s.all) {
                everything.addAll(s.ids);
            }
        }
        for (EventStreamReader s : streams) {
            if (s.all && !s.ids.equals(everything)) {
                throw new IllegalStateException("a stream of everything got " + s.ids.size() + " changes, the process"
                        + " streams " + everything.size() + " together");
            }
        }
        JsonNode finished =
                server.get("/api/v1/processes?type=arithmetic.add_multiply&state=finished&count=true&limit=1");
        if (finished.get("total").asLong() != n) {
            throw new IllegalStateException("only " + finished.get("total") + " of " + n + " work chains finished");
        }
        long[] processDelays = EventStreamReader.delays(streams, false);
        long[] watcherDelays = EventStreamReader.delays(streams, true);
        long[] allDelays = concat(processDelays, watcherDelays);
        result.put("changes", everything.size());
        result.put("deliveries", deliveries);
        result.put("delay_ms", stats(allDelays));
        result.put("delay_ms_process_streams", stats(processDelays));
        result.put("delay_ms_streams_of_everything", stats(watcherDelays));
        log(
                "%d changes, %d deliveries, none twice, none missed; delay (ms) all %s, process streams %s,"
                        + " streams of everything %s",
                everything.size(), deliveries, stats(allDelays), stats(processDelays), stats(watcherDelays));
        for (EventStreamReader s : streams) {
            s.close();
        }
        result.put("worker_log", workerLog.toString());
        return worker;
    }

    /** Opens a stream per process and {@code watchers} of everything, timed; reads the server's threads with them open. */
    private List<EventStreamReader> openStreams(List<String> processes, int watchers, Map<String, Object> result)
            throws Exception {
        int n = processes.size();
        long threadsBefore = server.liveThreads();
        log("opening %d process streams and %d streams of everything", n, watchers);
        List<EventStreamReader> streams = new ArrayList<>();
        long t0 = System.nanoTime();
        Semaphore opening = new Semaphore(64);
        List<Thread> openers = new ArrayList<>();
        List<EventStreamReader> opened = Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < n + watchers; i++) {
            String query = i < n ? "?process=" + processes.get(i) : "";
            boolean all = i >= n;
            opening.acquire();
            openers.add(Thread.ofVirtual().start(() -> {
                try {
                    opened.add(open(query, all));
                } catch (Exception e) {
                    throw new IllegalStateException("opening a stream" + query + ": " + e.getMessage(), e);
                } finally {
                    opening.release();
                }
            }));
        }
        for (Thread t : openers) {
            t.join();
        }
        streams.addAll(opened);
        if (streams.size() != n + watchers) {
            throw new IllegalStateException("opened " + streams.size() + " of " + (n + watchers) + " streams");
        }
        double openMs = ms(System.nanoTime() - t0);
        long threadsOpen = server.liveThreads();
        log(
                "%d streams open in %.0f ms; server threads %d before, %d with them open",
                streams.size(), openMs, threadsBefore, threadsOpen);
        result.put("streams_open_ms", round(openMs));
        result.put("server_threads_before", threadsBefore);
        result.put("server_threads_with_streams", threadsOpen);
        return streams;
    }

    private void batches(int n, int count, boolean withWorker, Map<String, Object> result) throws Exception {
        List<Double> times = new ArrayList<>();
        for (int b = 1; b <= count; b++) {
            if (withWorker) {
                awaitIdle();
            }
            long t0 = System.nanoTime();
            submitBatch(n, b * n);
            times.add(round(ms(System.nanoTime() - t0)));
            log("batch %d of %d work chains answered in %.0f ms", b, n, times.getLast());
        }
        if (withWorker) {
            awaitIdle();
        }
        result.put("batch_ms", times);
        double[] sorted =
                times.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (sorted.length > 0) {
            result.put("batch_ms_median", sorted[sorted.length / 2]);
        }
    }

    /** C clients, each sending its requests one after the other for T seconds. */
    private void concurrency(int clients, int seconds, Map<String, Object> result) throws Exception {
        if (clients == 0) {
            return;
        }
        List<String> some = new ArrayList<>();
        server.get("/api/v1/processes?limit=100")
                .get("items")
                .forEach(p -> some.add(p.get("uuid").asString()));
        log("%d clients for %d s: a page of 20 processes, or one process", clients, seconds);
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger failures = new AtomicInteger();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int c = 0; c < clients; c++) {
                int client = c;
                pool.submit(() -> {
                    int i = 0;
                    while (System.nanoTime() < end) {
                        String path = (i++ + client) % 2 == 0
                                ? "/api/v1/processes?limit=20"
                                : "/api/v1/processes/" + some.get((i + client) % some.size());
                        long t0 = System.nanoTime();
                        try {
                            HttpResponse<Void> r = server.http()
                                    .send(server.request(path).GET().build(), HttpResponse.BodyHandlers.discarding());
                            if (r.statusCode() != 200) {
                                failures.incrementAndGet();
                            }
                        } catch (IOException e) {
                            failures.incrementAndGet();
                        } catch (InterruptedException e) {
                            return;
                        }
                        latencies.add(System.nanoTime() - t0);
                    }
                });
            }
        }
        long[] micros = latencies.stream().mapToLong(l -> l / 1000).sorted().toArray();
        double perSecond = micros.length / (double) seconds;
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("clients", clients);
        stats.put("requests_per_s", round(perSecond));
        stats.put("failures", failures.get());
        stats.put("latency_ms", stats(micros, 1000.0));
        result.put("concurrent_requests", stats);
        log(
                "%d clients: %.0f requests/s, %d failures, latency (ms) %s",
                clients, perSecond, failures.get(), stats(micros, 1000.0));
    }

    /** Terminal moves a stream of everything waits for: one per process of the run. */
    private volatile int expectedTerminal;

    private EventStreamReader open(String query, boolean all) throws Exception {
        return EventStreamReader.open(server, query, all, () -> expectedTerminal);
    }

    // --- requests

    /** Launches n work chains in one batch; the streams then expect n terminal moves. */
    private List<String> submitBatch(int n, int offset) throws Exception {
        expectedTerminal = n;
        return server.submitBatch(n, offset);
    }

    private File workerLog;

    /** Starts the worker JVM; whatever happens next, it goes with this one. */
    private Process startWorker(String workerCommand) throws IOException {
        log("starting the worker: %s", workerCommand);
        workerLog = File.createTempFile("cairn-load-worker", ".log");
        Process worker = new ProcessBuilder("sh", "-c", "exec " + workerCommand)
                .redirectErrorStream(true)
                .redirectOutput(workerLog)
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(worker::destroyForcibly));
        return worker;
    }

    private void awaitIdle() throws Exception {
        server.awaitIdle(Duration.ofMillis(200));
    }

    // --- options

    private static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("options are --name value pairs; got " + Arrays.toString(args));
            }
            o.put(args[i].substring(2), args[++i]);
        }
        return o;
    }

    private static String required(Map<String, String> o, String name) {
        String v = o.get(name);
        if (v == null) {
            throw new IllegalArgumentException("--" + name + " is required (see the class's Javadoc)");
        }
        return v;
    }
}
