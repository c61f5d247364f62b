package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.e2e.CairnServerProcess.Signal;

/**
 * {@code java -jar cairn-server.jar} with nothing configured, on an empty data directory, as
 * {@code ./cairn up} runs it: it makes its own PostgreSQL cluster and broker, runs the demo, serves
 * the commands it prints, stops on Ctrl-C with nothing left running, and finds its nodes when it
 * starts again; a second server on the same data directory is refused; a server killed with
 * kill -9 leaves its PostgreSQL running, and the next start stops that one first. The steps build on each other, in order, on one data directory.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EmbeddedModeIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    static Path dataDir;

    private static CairnServerProcess server;
    private static final List<DemoOutput.Row> FIRST_RUN = new ArrayList<>();
    private static String firstToken;

    @AfterAll
    static void leaveNothingRunning() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void firstStartMakesItsOwnServicesRunsTheDemoAndServesWhatItPrints() throws Exception {
        server = CairnServerProcess.builder("embedded", dataDir)
                .setting("cairn.demo", "true")
                .start()
                .awaitReady();
        server.awaitOutput(DemoOutput.END, Duration.ofMinutes(3));

        JsonNode info = JSON.readTree(server.get("/api/v1/server", null).body());
        assertAll(
                () -> assertTrue(info.get("embeddedDatabase").asBoolean(), info.toString()),
                () -> assertTrue(info.get("embeddedBroker").asBoolean(), info.toString()),
                () -> assertEquals("[\"api\",\"worker\"]", info.get("roles").toString()));
        EmbeddedPostgres postgres = EmbeddedPostgres.of(dataDir).orElseThrow();
        assertTrue(postgres.isAlive(), "the cluster's postmaster runs");

        String output = server.output();
        List<DemoOutput.Row> rows = DemoOutput.rows(output);
        assertEquals(4, rows.size(), "the demo's table" + server.logTail());
        for (DemoOutput.Row row : rows) {
            assertEquals("finished", row.state(), row.toString());
            assertEquals("0", row.exit(), row.toString());
        }
        assertEquals(
                List.of("20", "110", "14", "9"),
                rows.stream().map(DemoOutput.Row::result).toList());
        assertEquals(
                List.of("ran", "ran", "ran", "cached"),
                rows.stream().map(DemoOutput.Row::cache).toList());
        FIRST_RUN.addAll(rows);
        firstToken = server.adminToken();

        List<String> curls = DemoOutput.curlCommands(output);
        assertEquals(3, curls.size(), output);
        assertTrue(curls.get(0).contains(server.url().getPort() + "/api/v1/server"), curls.get(0));
        for (String curl : curls) {
            Shell.Result r = Shell.run(curl);
            assertEquals(0, r.exit(), curl + " -> " + r);
            JsonNode answer = JSON.readTree(r.out());
            assertTrue(answer.isObject() && !answer.isEmpty(), curl + " -> " + r.out());
            assertFalse(answer.has("status") && answer.get("status").isInt(), curl + " answered a problem: " + r.out());
        }
        assertTrue(Shell.run(curls.get(1)).out().contains("process.uptime"), "the metric needs the token it sends");
    }

    @Test
    @Order(2)
    void ctrlCStopsTheServerAndItsPostgres() {
        EmbeddedPostgres postgres = EmbeddedPostgres.of(dataDir).orElseThrow();
        List<ProcessHandle> tree = new ArrayList<>(server.handle().descendants().toList());
        tree.add(server.handle());

        int exit = server.stop(Signal.INT, Duration.ofMinutes(1));

        assertEquals(130, exit, "a JVM ended by SIGINT exits with 128 + 2" + server.logTail());
        assertFalse(postgres.isAlive(), "the postmaster (pid " + postgres.pid() + ") stopped");
        assertFalse(Files.exists(EmbeddedPostgres.pidFile(dataDir)), "PostgreSQL removed postmaster.pid");
        assertEquals(List.of(), tree.stream().filter(ProcessHandle::isAlive).toList(), "the JVM's process tree");
        assertEquals(List.of(), server.processesOfDataDir(), "processes naming " + dataDir);
        String stopping = server.output().substring(server.output().indexOf(DemoOutput.END));
        assertAll(
                () -> assertTrue(stopping.contains("worker role stopped"), server.logTail()),
                () -> assertTrue(stopping.contains("embedded PostgreSQL stopped"), server.logTail()),
                () -> assertFalse(stopping.matches("(?s).*( ERROR |Exception).*"), "a clean stop" + server.logTail()));
    }

    @Test
    @Order(3)
    void secondStartFindsTheFirstRunsNodesAndToken() throws Exception {
        server = CairnServerProcess.builder("embedded-again", dataDir).start().awaitReady();

        assertEquals(firstToken, server.adminToken(), "no new token: the first one is in the database");
        assertEquals(200, server.get("/actuator/metrics", firstToken).statusCode());
        EmbeddedPostgres postgres = EmbeddedPostgres.of(dataDir).orElseThrow();
        try (Connection c = DriverManager.getConnection(postgres.jdbcUrl());
                PreparedStatement s = c.prepareStatement(
                        "SELECT process_type, attributes->>'process_state' FROM node WHERE uuid = ?")) {
            for (DemoOutput.Row row : FIRST_RUN) {
                s.setObject(1, UUID.fromString(row.uuid()));
                try (ResultSet rs = s.executeQuery()) {
                    assertTrue(rs.next(), "the first run's " + row.process() + " " + row.uuid() + " is there");
                    assertTrue(row.process().startsWith(rs.getString(1)), rs.getString(1) + " for " + row);
                    assertEquals("finished", rs.getString(2));
                }
            }
        }
    }

    @Test
    @Order(4)
    void aSecondServerOnTheSameDataDirectoryIsRefusedNamingTheFirst() {
        EmbeddedPostgres postgres = EmbeddedPostgres.of(dataDir).orElseThrow();
        CairnServerProcess second =
                CairnServerProcess.builder("embedded-second", dataDir).start();
        try {
            int exit = second.awaitExit(Duration.ofMinutes(3));

            assertNotEquals(0, exit, "it does not start" + second.logTail());
            assertTrue(
                    second.output().contains("is in use by another Cairn server (pid " + server.pid() + ")"),
                    second.logTail());
            assertTrue(postgres.isAlive(), "the first server's PostgreSQL runs on");
            assertEquals(200, server.get("/actuator/metrics").statusCode(), "and the first server serves");
        } finally {
            if (second.isAlive()) {
                second.kill9(); // not close(): that would stop what runs on the shared data directory
            }
        }
    }

    @Test
    @Order(5)
    void aKilledServerLeavesItsPostgresWhichTheNextStartStops() {
        EmbeddedPostgres orphan = EmbeddedPostgres.of(dataDir).orElseThrow();
        server.kill9();
        assertTrue(orphan.isAlive(), "kill -9 runs no shutdown hook: PostgreSQL outlives the JVM");

        server = CairnServerProcess.builder("embedded-after-kill", dataDir)
                .start()
                .awaitReady();

        assertFalse(orphan.isAlive(), "the next start stopped the postmaster left behind (pid " + orphan.pid() + ")");
        EmbeddedPostgres now = EmbeddedPostgres.of(dataDir).orElseThrow();
        assertNotEquals(orphan.pid(), now.pid());
        assertEquals(200, server.get("/actuator/metrics", firstToken).statusCode(), "and the data is still there");

        assertEquals(143, server.stop(Signal.TERM), "a JVM ended by SIGTERM exits with 128 + 15");
        assertFalse(now.isAlive());
        assertEquals(List.of(), server.processesOfDataDir());
    }

    /** Runs a command line with bash, as a user pastes it. */
    static final class Shell {
        record Result(int exit, String out) {}

        static Result run(String line) throws IOException, InterruptedException {
            Process p = new ProcessBuilder("bash", "-c", line)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new Result(p.waitFor(), out);
        }
    }
}
