package dev.cairn.api.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiServices;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.engine.process.Inputs;
import dev.cairn.examples.Arithmetic;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ProcessNode;

/**
 * The Prometheus scrape, with a token of role read: HTTP, JVM and connection pool meters, and the
 * engine's own, which follow what the engine does (here, the same calculation launched twice, the
 * second taking its outputs from the cache).
 */
@TestPropertySource(properties = "cairn.caching=all")
class MetricsIT extends ApiTest {

    @Test
    void theScrapeNeedsAToken() {
        Api.Response r = api(null).get("/actuator/prometheus");
        assertEquals(401, r.status(), r.toString());
    }

    @Test
    void theEngineMetersFollowTheStepsTheProcessesAndTheCache() throws Exception {
        Api reader = api(token(Role.READ));
        assertEquals(200, api(null).get("/api/v1/server").status());
        List<ProcessNode> launched = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            ProcessNode p = engine.launcher()
                    .submit(Arithmetic.ADD, Inputs.of(Arithmetic.X, new IntData(20), Arithmetic.Y, new IntData(22)));
            Steps.awaitState(ApiServices.db(), p.id(), "finished", Duration.ofSeconds(30));
            launched.add(p);
        }

        String scrape = awaitScrape(reader, 2.0, "cairn_processes", "state=\"finished\"");
        assertEquals(2.0, value(scrape, "cairn_steps_seconds_count", "outcome=\"committed\""), scrape);
        assertEquals(0.0, value(scrape, "cairn_steps_seconds_count", "outcome=\"returned\""));
        assertTrue(value(scrape, "cairn_steps_seconds_sum", "outcome=\"committed\"") > 0);
        assertTrue(scrape.contains("cairn_steps_seconds_bucket{outcome=\"committed\",le="), "a latency histogram");
        assertEquals(1.0, value(scrape, "cairn_cache_hits_total"), "the second launch took the first's outputs");
        assertEquals(0.0, value(scrape, "cairn_processes", "state=\"created\""));
        assertEquals(0.0, value(scrape, "cairn_outbox_rows"));
        assertEquals(0.0, value(scrape, "cairn_tasks_ready"));
        assertEquals(1.0, value(scrape, "cairn_tasks_consumers"), "this server's worker");
        assertTrue(value(scrape, "hikaricp_connections", "pool=\"cairn-graph\"") >= 1, "the engine's pool");
        assertEquals(8.0, value(scrape, "hikaricp_connections_max", "pool=\"cairn-graph\""), "the pool size as set");
        assertTrue(sum(scrape, "jvm_memory_used_bytes", "area=\"heap\"") > 0, "the JVM's heap, over its pools");
        assertTrue(
                scrape.contains("http_server_requests_seconds_count{") && scrape.contains("uri=\"/api/v1/server\""),
                "Spring's HTTP meters");
    }

    /** Scrapes until the series has {@code expected} (the engine's gauges are read at most every 5 s). */
    private static String awaitScrape(Api reader, double expected, String name, String... labels)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            Api.Response r = reader.get("/actuator/prometheus");
            assertEquals(200, r.status(), r.toString());
            if (value(r.body(), name, labels) == expected) {
                return r.body();
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(name + " " + List.of(labels) + " is not " + expected + " in\n" + r.body());
            }
            Thread.sleep(500);
        }
    }

    /** The sum over the samples of {@code name} whose labels include {@code labels} (a pool of them may be empty). */
    private static double sum(String scrape, String name, String... labels) {
        double total = 0;
        int samples = 0;
        for (String line : scrape.split("\n")) {
            if (line.startsWith(name + "{")) {
                int space = line.lastIndexOf(' ');
                if (Arrays.stream(labels).allMatch(line.substring(0, space)::contains)) {
                    total += Double.parseDouble(line.substring(space + 1));
                    samples++;
                }
            }
        }
        assertTrue(samples > 0, "no sample " + name + " " + List.of(labels) + " in the scrape");
        return total;
    }

    /** The value of the first sample of {@code name} whose labels include {@code labels}. */
    private static double value(String scrape, String name, String... labels) {
        for (String line : scrape.split("\n")) {
            if (line.startsWith(name + "{") || line.startsWith(name + " ")) {
                int space = line.lastIndexOf(' ');
                String series = line.substring(0, space);
                if (Arrays.stream(labels).allMatch(series::contains)) {
                    return Double.parseDouble(line.substring(space + 1));
                }
            }
        }
        throw new AssertionError("no sample " + name + " " + List.of(labels) + " in the scrape");
    }
}
