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
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import dev.cairn.e2e.CairnCli;
import dev.cairn.e2e.CairnServerProcess;
import dev.cairn.e2e.ServerStartupCache;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * {@code cairn db migrate}, {@code server start}, {@code status}, {@code db status}, {@code worker
 * start|status|stop} and {@code server stop} on an external PostgreSQL and broker, as a person runs them
 * in turn on one data directory with no profile: the commands find the server by CAIRN_URL and its admin
 * token in the data directory. The steps build on each other, in order.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ServerCommandsIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    static Path home;

    @TempDir
    static Path dataDir;

    static CairnCli cairn;
    static List<String> services;
    static long serverPid;
    static int port;

    @BeforeAll
    static void cli() {
        port = freePort();
        services = List.of(
                "--cairn.database.url=" + db.jdbcUrl(),
                "--cairn.broker.uri=" + CairnServerProcess.amqpUri(broker),
                "--cairn.worker.slots=2");
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
        ProcessHandle.of(serverPid).ifPresent(ProcessHandle::destroyForcibly);
    }

    @Test
    @Order(1)
    void migrateBringsAnEmptyDatabaseToTheCurrentSchemaInAJvmThatExits() throws Exception {
        CairnCli.Run migrate = cairn.run(args("db", "migrate"));
        CairnCli.Run again = cairn.run(args("db", "migrate"));

        assertAll(
                () -> assertEquals(0, migrate.exit(), migrate.toString()),
                () -> assertTrue(
                        migrate.out()
                                .contains(migrationCount() + " migrations applied, now at version " + lastVersion()),
                        migrate.toString()),
                () -> assertEquals(0, again.exit(), again.toString()),
                () -> assertTrue(again.out().contains("0 migrations applied"), again.toString()));
        assertEquals(lastVersion(), schemaVersion(), "flyway_schema_history holds the last migration");
    }

    @Test
    @Order(2)
    void startWithoutServicesOrWithAWrongSettingIsAUsageErrorAndStartsNothing() {
        CairnCli.Run noServices = cairn.run("server", "start");
        CairnCli.Run wrong = cairn.run("server", "start", "--embedded", "--cairn.worker.slots");
        CairnCli.Run dataDirSetting = cairn.run("server", "start", "--embedded", "--cairn.data-dir=/tmp");
        CairnCli.Run help = cairn.run("server", "start", "--help");
        assertAll(
                () -> assertEquals(0, help.exit(), help.toString()),
                () -> assertTrue(help.out().contains("--embedded"), help.toString()),
                () -> assertEquals(2, noServices.exit(), noServices.toString()),
                () -> assertTrue(noServices.err().contains("--embedded"), noServices.toString()),
                () -> assertEquals(2, wrong.exit(), wrong.toString()),
                () -> assertTrue(wrong.err().contains("'--cairn.worker.slots'"), wrong.toString()),
                () -> assertEquals(2, dataDirSetting.exit(), dataDirSetting.toString()),
                () -> assertTrue(dataDirSetting.err().contains("--data-dir"), dataDirSetting.toString()),
                () -> assertFalse(Files.exists(dataDir.resolve("server.pid")), "nothing started"));
    }

    @Test
    @Order(3)
    void startWaitsUntilTheServerIsReadyAndPrintsItsUrl() throws Exception {
        CairnCli.Run start = cairn.run(Duration.ofMinutes(4), null, args("server", "start"));

        assertEquals(0, start.exit(), start.toString());
        String url = cairnUrl();
        assertEquals(url, start.out().strip(), start.toString());
        serverPid =
                Long.parseLong(Files.readString(dataDir.resolve("server.pid")).strip());
        assertTrue(ProcessHandle.of(serverPid).map(ProcessHandle::isAlive).orElse(false), "the server runs");
        assertTrue(Files.readString(dataDir.resolve("server.log")).contains("Started CairnApplication"));

        CairnCli.Run status = cairn.run("server", "status", "--json");
        assertEquals(0, status.exit(), status.toString());
        assertEquals(serverPid, status.json().get("pid").asLong());
        assertEquals(url, status.json().get("url").asString());
        CairnCli.Run twice = cairn.run(args("server", "start"));
        assertEquals(0, twice.exit(), twice.toString());
        assertTrue(twice.err().contains("already runs (pid " + serverPid + ")"), twice.toString());
    }

    @Test
    @Order(4)
    void statusSaysEveryPartIsUpAndDbStatusTheSchemasVersion() throws Exception {
        CairnCli.Run status = cairn.run("status");
        CairnCli.Run json = cairn.run("status", "--json");
        CairnCli.Run schema = cairn.run("db", "status");
        CairnCli.Run schemaJson = cairn.run("db", "status", "--json");

        assertEquals(0, status.exit(), status.toString());
        for (String part : List.of("server", "database", "broker", "object store", "workers", "queue")) {
            assertTrue(status.out().lines().anyMatch(l -> l.matches(part + " +up .*")), part + ": " + status);
        }
        assertTrue(status.out().contains("1 connected"), status.toString());
        JsonNode parts = json.json();
        assertAll(
                () -> assertEquals(0, json.exit(), json.toString()),
                () -> assertEquals("UP", parts.get("database").get("status").asString()),
                () -> assertEquals("UP", parts.get("objectStore").get("status").asString()),
                () -> assertEquals(1, parts.get("workers").get("connected").asInt(), "the server's own worker"),
                () -> assertEquals(0, parts.get("queue").get("waiting").asLong()),
                () -> assertFalse(parts.get("server").get("embeddedDatabase").asBoolean()));
        assertAll(
                () -> assertEquals(0, schema.exit(), schema.toString()),
                () -> assertEquals(
                        "schema version " + lastVersion() + ": " + migrationCount()
                                + " migrations applied, none pending",
                        schema.out().strip()),
                () -> assertEquals(
                        lastVersion(), schemaJson.json().get("version").asString()),
                () -> assertEquals(
                        migrationCount(), schemaJson.json().get("applied").size()),
                () -> assertTrue(schemaJson.json().get("pending").isEmpty()));
    }

    @Test
    @Order(5)
    void workersStartConnectAndStop() {
        CairnCli.Run start = cairn.run(Duration.ofMinutes(4), null, "worker", "start", "2", "--json");
        assertEquals(0, start.exit(), start.toString());
        assertEquals(2, start.json().size(), start.toString());
        List<Long> pids = new ArrayList<>();
        start.json().forEach(w -> pids.add(w.get("pid").asLong()));

        CairnCli.Run list = cairn.run("worker", "status", "--json");
        assertEquals(2, list.json().size(), list.toString());
        assertEquals(
                List.of(1, 2),
                List.of(
                        list.json().get(0).get("worker").asInt(),
                        list.json().get(1).get("worker").asInt()));
        JsonNode parts = awaitWorkersConnected(3);
        assertEquals(3, parts.get("workers").get("connected").asInt(), parts.toString());
        CairnCli.Run log = cairn.run("worker", "logs", "1", "-n", "200");
        assertEquals(0, log.exit(), log.toString());
        assertTrue(log.out().contains("Started CairnApplication"), "worker 1's own log: " + log);

        CairnCli.Run stopOne = cairn.run("worker", "stop", "1");
        assertEquals(0, stopOne.exit(), stopOne.toString());
        assertTrue(stopOne.err().contains("Stopped worker 2"), "the last started goes first: " + stopOne);
        CairnCli.Run bad = cairn.run("worker", "stop", "1", "--all");
        assertEquals(2, bad.exit(), bad.toString());
        CairnCli.Run stopAll = cairn.run("worker", "stop", "--all");
        assertEquals(0, stopAll.exit(), stopAll.toString());

        assertEquals(0, cairn.run("worker", "status", "--json").json().size());
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "worker pid " + pid);
        }
        assertEquals(1, awaitWorkersConnected(1).get("workers").get("connected").asInt());
    }

    @Test
    @Order(6)
    void stopEndsTheServerAndStatusThenSaysItCannotBeReached() {
        ProcessHandle server = ProcessHandle.of(serverPid).orElseThrow();

        CairnCli.Run stop = cairn.run("server", "stop");

        assertEquals(0, stop.exit(), stop.toString());
        assertFalse(server.isAlive(), "the server's JVM ended");
        assertFalse(Files.exists(dataDir.resolve("server.pid")), "its pid file is gone");
        CairnCli.Run status = cairn.run("status");
        CairnCli.Run serverStatus = cairn.run("server", "status");
        CairnCli.Run stopAgain = cairn.run("server", "stop");
        assertAll(
                () -> assertEquals(6, status.exit(), status.toString()),
                () -> assertTrue(status.out().matches("(?s).*server +down +cannot reach .*"), status.toString()),
                () -> assertEquals(6, serverStatus.exit(), serverStatus.toString()),
                () -> assertTrue(serverStatus.out().startsWith("not running"), serverStatus.toString()),
                () -> assertEquals(0, stopAgain.exit(), stopAgain.toString()),
                () -> assertTrue(stopAgain.err().contains("No server runs"), stopAgain.toString()));
        CairnCli.Run logs = cairn.run("server", "logs", "-n", "5");
        assertEquals(0, logs.exit(), logs.toString());
        assertEquals(5, logs.out().lines().count(), logs.toString());
    }

    private static JsonNode awaitWorkersConnected(int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            CairnCli.Run status = cairn.run("status", "--json");
            JsonNode parts = status.json();
            if (parts.get("workers").path("connected").asInt() == count || System.nanoTime() > deadline) {
                return parts;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private static String[] args(String... command) {
        List<String> all = new ArrayList<>(List.of(command));
        all.addAll(services);
        return all.toArray(String[]::new);
    }

    private static String cairnUrl() {
        return "http://127.0.0.1:" + port;
    }

    static int migrationCount() {
        return migrations().size();
    }

    static String lastVersion() {
        return Integer.toString(
                migrations().stream().mapToInt(Integer::parseInt).max().orElseThrow());
    }

    /** The versions of the migrations in the storage module's sources: what a current schema holds. */
    static List<String> migrations() {
        Path dir = Path.of("../../storage/src/main/resources/db/migration");
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.matches("V\\d+__.*\\.sql"))
                    .map(n -> n.substring(1, n.indexOf("__")))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String schemaVersion() throws Exception {
        try (Connection c = db.connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(
                        "SELECT version FROM flyway_schema_history WHERE success ORDER BY installed_rank DESC LIMIT 1")) {
            assertTrue(rs.next());
            return rs.getString(1);
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
