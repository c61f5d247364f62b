package dev.cairn.e2e.cli;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import dev.cairn.e2e.CairnCli;
import dev.cairn.e2e.ServerStartupCache;

/**
 * {@code cairn worker start} for a server in the embedded mode: the server publishes its own
 * PostgreSQL and broker in {@code services.settings} (owner-only), a worker JVM started from it
 * consumes the server's queue, {@code cairn server stop} stops the worker before the server and
 * leaves no process behind, and with the server stopped a worker is refused. A worker whose server
 * ended otherwise retries for ever, so the next start of the server stops it.
 */
class EmbeddedWorkersIT {

    @TempDir
    static Path home;

    @TempDir
    static Path dataDir;

    static CairnCli cairn;

    @BeforeAll
    static void cli() {
        int port = freePort();
        cairn = new CairnCli(home)
                .env("CAIRN_DATA_DIR", dataDir.toString())
                .env("CAIRN_URL", "http://127.0.0.1:" + port)
                .env("CAIRN_PORT", Integer.toString(port));
        // cairn starts the server from its start-up cache, as the suite's other servers: recorded first, so that
        // its recording and the suite's do not overlap
        ServerStartupCache.record();
    }

    @AfterAll
    static void leaveNothingRunning() {
        cairn.run("worker", "stop", "--all");
        cairn.run("server", "stop");
    }

    @Test
    void workersOfAnEmbeddedServerUseItsServicesAndStopWithIt() throws Exception {
        CairnCli.Run start = cairn.run(Duration.ofMinutes(4), null, "server", "start", "--embedded");
        assertEquals(0, start.exit(), start.toString());
        long serverPid =
                Long.parseLong(Files.readString(dataDir.resolve("server.pid")).strip());
        Path services = dataDir.resolve("services.settings");
        List<String> published = Files.readAllLines(services);
        assertAll(
                () -> assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(services))),
                // through the cluster's Unix socket, which the workers of this host reach as the server does
                () -> assertTrue(
                        published.stream()
                                .anyMatch(l -> l.startsWith("--cairn.database.url=jdbc:postgresql:")
                                        && l.contains("socketFactory=dev.cairn.storage.db.UnixSocketFactory")),
                        published.toString()),
                () -> assertTrue(
                        published.stream().anyMatch(l -> l.startsWith("--cairn.broker.uri=amqp://")),
                        published.toString()));

        CairnCli.Run workers = cairn.run(Duration.ofMinutes(4), null, "worker", "start", "1", "--json");
        assertEquals(0, workers.exit(), workers.toString());
        long workerPid = workers.json().get(0).get("pid").asLong();
        assertEquals(1, cairn.run("worker", "status", "--json").json().size());
        JsonNode parts = awaitWorkersConnected(2);
        assertEquals(2, parts.get("workers").get("connected").asInt(), "the server's own and the worker: " + parts);

        long postmaster = Long.parseLong(Files.readAllLines(
                        dataDir.resolve("postgres").resolve("cluster").resolve("postmaster.pid"))
                .getFirst()
                .strip());
        List<ProcessHandle> all = new ArrayList<>();
        for (long pid : List.of(serverPid, workerPid, postmaster)) {
            ProcessHandle p = ProcessHandle.of(pid).orElseThrow();
            all.add(p);
            all.addAll(p.descendants().toList());
        }

        CairnCli.Run stop = cairn.run(Duration.ofMinutes(3), null, "server", "stop");

        assertEquals(0, stop.exit(), stop.toString());
        String said = stop.err();
        assertAll(
                () -> assertTrue(said.contains("Stopping the workers first"), stop.toString()),
                () -> assertTrue(said.indexOf("Stopped worker 1") < said.indexOf("Stopped the server"), said),
                () -> assertEquals(
                        List.of(), all.stream().filter(ProcessHandle::isAlive).toList(), "left running"),
                () -> assertFalse(Files.exists(services), "the services file is gone with the services"),
                () -> assertEquals(
                        0, cairn.run("worker", "status", "--json").json().size()));

        CairnCli.Run refused = cairn.run("worker", "start", "1");
        assertAll(
                () -> assertEquals(6, refused.exit(), refused.toString()),
                () -> assertTrue(refused.err().contains("does not run"), refused.toString()),
                () -> assertTrue(refused.err().contains("`cairn server start --embedded`"), refused.toString()),
                () -> assertFalse(Files.exists(dataDir.resolve("workers").resolve("worker-1.pid")), "none started"));
    }

    @Test
    void workersLeftByAServerThatEndedOtherwiseStopAtItsNextStart() throws Exception {
        assertEquals(
                0,
                cairn.run(Duration.ofMinutes(4), null, "server", "start", "--embedded")
                        .exit());
        CairnCli.Run workers = cairn.run(Duration.ofMinutes(4), null, "worker", "start", "1", "--json");
        assertEquals(0, workers.exit(), workers.toString());
        ProcessHandle worker =
                ProcessHandle.of(workers.json().get(0).get("pid").asLong()).orElseThrow();
        ProcessHandle server = ProcessHandle.of(Long.parseLong(
                        Files.readString(dataDir.resolve("server.pid")).strip()))
                .orElseThrow();

        // the worker is held still while its server ends (SIGTERM to the JVM itself, not `cairn server
        // stop`), so that it is surely there at the next start, as one that retries its services is
        signal("STOP", worker);
        server.destroy();
        server.onExit().get(2, TimeUnit.MINUTES);
        signal("CONT", worker);
        assertTrue(worker.isAlive(), "the worker outlived its server");
        CairnCli.Run again = cairn.run(Duration.ofMinutes(4), null, "server", "start", "--embedded");

        assertEquals(0, again.exit(), again.toString());
        assertAll(
                () -> assertTrue(again.err().contains("left by the last run"), again.toString()),
                () -> assertFalse(worker.isAlive(), "the left worker stopped"));
        assertEquals(0, cairn.run(Duration.ofMinutes(3), null, "server", "stop").exit());
    }

    private static void signal(String name, ProcessHandle process) throws IOException, InterruptedException {
        assertEquals(
                0,
                new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
                        .start()
                        .waitFor());
    }

    private static JsonNode awaitWorkersConnected(int count) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            JsonNode parts = cairn.run("status", "--json").json();
            if (parts.get("workers").path("connected").asInt() == count || System.nanoTime() > deadline) {
                return parts;
            }
            Thread.sleep(500);
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
