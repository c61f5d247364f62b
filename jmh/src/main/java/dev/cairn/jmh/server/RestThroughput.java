package dev.cairn.jmh.server;

import static dev.cairn.jmh.server.LoadFigures.log;
import static dev.cairn.jmh.server.LoadFigures.ms;
import static dev.cairn.jmh.server.LoadFigures.round;
import static dev.cairn.jmh.server.LoadFigures.stats;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

/**
 * Processes per hour through REST, measured as {@code compare-engine.sh --workload functions} measures
 * the engine: N work chains submitted by one client in batches of 100 (the engine comparison's batches,
 * here {@code POST /api/v1/processes/batch}), three processes per work chain, from the first submit to
 * the moment no process is live (polled every 20 ms). Then, apart, N/10 single launches one request
 * each, for the cost of one {@code POST /api/v1/processes}. A warm-up of N/10 first, which also waits
 * until the worker consumes.
 */
final class RestThroughput {

    private static final Duration POLL = Duration.ofMillis(20);

    private final ServerClient server;

    RestThroughput(ServerClient server) {
        this.server = server;
    }

    void measure(int n, Map<String, Object> result) throws Exception {
        log("throughput: warm-up of %d work chains", n / 10);
        server.submitBatch(n / 10, -n);
        server.awaitIdle(POLL);
        log("throughput: %d work chains in batches of 100", n);
        long t0 = System.nanoTime();
        for (int from = 0; from < n; from += 100) {
            server.submitBatch(Math.min(100, n - from), from);
        }
        double submitMs = ms(System.nanoTime() - t0);
        server.awaitIdle(POLL);
        double seconds = (System.nanoTime() - t0) / 1e9;
        long perHour = Math.round(3 * n / seconds * 3600);
        log(
                "throughput: %d processes in %.2f s (submits took %.0f ms): %,d processes/h",
                3 * n, seconds, submitMs, perHour);
        result.put("throughput_work_chains", n);
        result.put("throughput_seconds", round(seconds * 1000) / 1000);
        result.put("throughput_submit_ms", round(submitMs));
        result.put("throughput_processes_per_hour", perHour);

        long[] single = new long[n / 10];
        for (int i = 0; i < single.length; i++) {
            long s0 = System.nanoTime();
            server.submitOne(n + i);
            single[i] = (System.nanoTime() - s0) / 1000;
        }
        Arrays.sort(single);
        server.awaitIdle(POLL);
        result.put("single_launch_ms", stats(single));
        log("throughput: one launch per request took (ms) %s", stats(single));
    }
}
