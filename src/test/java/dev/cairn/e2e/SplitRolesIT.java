package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.e2e.CairnServerProcess.Signal;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * A cluster of two JVMs on one database and broker: one with the role api, one with the role
 * worker, sharing the object store as the hosts of a cluster share a file system. What is submitted
 * to the api-only server waits until the worker-only one runs, and then runs there. The submitter
 * is the api server's demo (it submits through the engine's launcher, as the API's endpoints do).
 */
class SplitRolesIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    Path dir;

    @Test
    void processesSubmittedToAnApiOnlyServerRunOnAWorkerOnlyServer() throws Exception {
        Path store = dir.resolve("objects");
        CairnServerProcess.Builder worker = CairnServerProcess.builder("worker-only", dir.resolve("worker"))
                .database(db)
                .broker(broker)
                .roles("worker")
                .setting("cairn.store.path", store.toString());
        try (CairnServerProcess api = CairnServerProcess.builder("api-only", dir.resolve("api"))
                .database(db)
                .broker(broker)
                .roles("api")
                .setting("cairn.store.path", store.toString())
                .setting("cairn.demo", "true")
                .start()
                .awaitReady()) {
            assertEquals(
                    "[\"api\"]",
                    JSON.readTree(api.get("/api/v1/server", null).body())
                            .get("roles")
                            .toString());
            awaitProcesses(3);
            Thread.sleep(2_000);
            assertEquals(0, sealedProcesses(), "no worker, so nothing ran");
            assertFalse(api.output().contains("worker started"), api.logTail());

            try (CairnServerProcess running = worker.start().awaitReady()) {
                assertEquals(
                        "[\"worker\"]",
                        JSON.readTree(running.get("/api/v1/server", null).body())
                                .get("roles")
                                .toString());
                api.awaitOutput(DemoOutput.END, Duration.ofMinutes(3));

                List<DemoOutput.Row> rows = DemoOutput.rows(api.output());
                assertEquals(4, rows.size(), api.logTail());
                for (DemoOutput.Row row : rows) {
                    assertEquals("finished", row.state(), row + api.logTail() + running.logTail());
                    assertEquals("0", row.exit(), row.toString());
                }
                assertTrue(running.output().contains("worker started"), running.logTail());
                assertEquals(143, running.stop(Signal.TERM));
                assertTrue(
                        running.output().matches("(?s).*worker role stopped \\([1-9]\\d* steps run\\).*"),
                        "the worker-only server ran the steps" + running.logTail());
            }
            assertEquals(143, api.stop(Signal.TERM));
        }
    }

    /** Waits until the api server's demo has submitted {@code n} processes. */
    private static void awaitProcesses(int n) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (count("SELECT count(*) FROM node WHERE node_type LIKE 'process.%'") < n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the demo submitted no " + n + " processes within 2 minutes");
            }
            Thread.sleep(100);
        }
    }

    private static long sealedProcesses() throws Exception {
        return count("SELECT count(*) FROM node WHERE node_type LIKE 'process.%' AND (attributes->>'sealed')::boolean");
    }

    private static long count(String sql) throws Exception {
        try (Connection c = db.connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
