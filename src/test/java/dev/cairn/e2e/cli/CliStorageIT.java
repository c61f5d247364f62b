package dev.cairn.e2e.cli;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.e2e.CairnCli;
import dev.cairn.e2e.CairnServerProcess;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * {@code cairn storage}: a backup taken while the server runs, restored into a fresh database and data
 * folder, holds the same nodes, links and file bytes, and a process paused before the backup plays to its
 * end on the restored server; a second backup links unchanged files, --keep prunes, a restore into a
 * non-empty installation is refused and changes nothing, and validate finds a damaged object.
 */
class CliStorageIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    static final TestDatabase source = new TestDatabase();

    @RegisterExtension
    static final TestDatabase target = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    Path work;

    @Test
    void aBackupRestoresIntoAFreshInstallationAndAPausedProcessPlaysToItsEnd() throws Exception {
        byte[] content = new byte[300_000];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) (i * 31 + 7);
        }
        Path backups = work.resolve("backups");
        String token;
        String file;
        String process;
        JsonNode infoBefore;
        // the source runs the API alone: a launched process waits for a worker, and is paused
        try (CairnServerProcess server = CairnServerProcess.builder("storage-source", work.resolve("a"))
                .database(source)
                .broker(broker)
                .roles("api")
                .setting("cairn.broker.prefix", "source")
                .start()
                .awaitReady()) {
            token = server.adminToken();
            HttpResponse<String> upload = server.send(server.request("/api/v1/nodes/files?name=data.bin", token)
                    .header("Content-Type", "application/octet-stream")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(content))
                    .build());
            assertEquals(201, upload.statusCode(), upload.body());
            file = JSON.readTree(upload.body()).get("uuid").asString();
            HttpResponse<String> launch = server.send(server.request("/api/v1/processes", token)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"entry_point\": \"arithmetic.add_multiply\", \"inputs\":"
                                    + " {\"x\": {\"value\": 2}, \"y\": {\"value\": 3}, \"z\": {\"value\": 4}}}"))
                    .build());
            assertEquals(201, launch.statusCode(), launch.body());
            String location = launch.headers().firstValue("Location").orElseThrow();
            process = location.substring(location.lastIndexOf('/') + 1);
            HttpResponse<String> pause = server.send(server.request("/api/v1/processes/" + process + "/pause", token)
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build());
            assertEquals(200, pause.statusCode(), pause.body());

            CairnCli cairn = CairnCli.against(work.resolve("home"), server.url(), token);
            // no worker takes the queue of an API alone: status says so, and exits 1
            CairnCli.Run status = cairn.run("status");
            assertEquals(1, status.exit(), status.toString());
            assertTrue(
                    status.out().lines().anyMatch(l -> l.matches("workers +down +0 connected: processes wait .*")),
                    status.toString());
            assertTrue(status.out().lines().anyMatch(l -> l.matches("database +up .*")), status.toString());
            CairnCli.Run detailed = cairn.run("storage", "info", "--detailed", "--json");
            assertEquals(0, detailed.exit(), detailed.toString());
            assertEquals(
                    3,
                    detailed.json().path("nodeTypes").path("data.core.int.Int.").asLong(),
                    "x, y and z: " + detailed);
            attributeIndexes(cairn);
            CairnCli.Run dryRun = cairn.run("storage", "maintain", "--dry-run", "--json");
            assertEquals(0, dryRun.exit(), dryRun.toString());
            infoBefore = cairn.run("storage", "info", "--json").json();
            assertFalse(infoBefore.has("nodeTypes"), "per type only when --detailed: " + infoBefore);
            assertEquals(
                    1, infoBefore.get("objects").get("looseObjects").asLong(), "dry run packed nothing: " + infoBefore);
            assertTrue(dryRun.json().get("dryRun").asBoolean(), dryRun.toString());
            Path aFile = Files.writeString(work.resolve("a-file"), "not a folder");
            CairnCli.Run onAFile = cairn.run("storage", "backup", aFile.toString());
            assertEquals(2, onAFile.exit(), onAFile.toString());
            assertTrue(
                    onAFile.err().contains("'destination'") && onAFile.err().contains("not a folder"),
                    onAFile.toString());
            assertEquals("not a folder", Files.readString(aFile));
            CairnCli.Run keepNone = cairn.run("storage", "backup", backups.toString(), "--keep", "0");
            assertEquals(2, keepNone.exit(), keepNone.toString());
            assertTrue(keepNone.err().contains("--keep"), keepNone.toString());
            assertFalse(Files.exists(backups), "nothing was backed up");

            CairnCli.Run first = cairn.run("storage", "backup", backups.toString(), "--json");
            assertEquals(0, first.exit(), first.toString());
            CairnCli.Run maintain = cairn.run("storage", "maintain", "--json");
            assertEquals(0, maintain.exit(), maintain.toString());
            assertEquals(1, maintain.json().get("objectsPacked").asLong(), maintain.toString());
            CairnCli.Run second = cairn.run("storage", "backup", backups.toString(), "--json");
            CairnCli.Run third = cairn.run("storage", "backup", backups.toString(), "--keep", "2", "--json");
            assertEquals(0, third.exit(), third.toString());
            // the third backup's pack is the second's, linked: one inode
            Path pack2 = Path.of(second.json().get("path").asString()).resolve("objects/packs/0");
            Path pack3 = Path.of(third.json().get("path").asString()).resolve("objects/packs/0");
            assertAll(
                    () -> assertEquals(Files.getAttribute(pack2, "unix:ino"), Files.getAttribute(pack3, "unix:ino")),
                    () -> assertTrue(third.json().get("filesLinked").asLong() >= 1, third.toString()),
                    () -> assertEquals(1, third.json().get("pruned").size(), third.toString()),
                    () -> assertEquals(2, backupFolders(backups).size()),
                    () -> assertTrue(Files.isSymbolicLink(backups.resolve("last"))),
                    () -> assertEquals(
                            third.json().get("path").asString(),
                            backups.resolve("last").toRealPath().toString()));

            CairnCli.Run valid = cairn.run("storage", "validate");
            assertEquals(0, valid.exit(), valid.toString());
        }

        // restore into a fresh database and data folder; the CLI runs the server jar once
        Path dataB = work.resolve("b");
        CairnCli restorer = new CairnCli(work.resolve("home2"));
        CairnCli.Run restore = restorer.run(
                Duration.ofMinutes(3),
                null,
                "storage",
                "restore",
                backups.toString(),
                "--setting",
                "cairn.database.url=" + target.jdbcUrl(),
                "--setting",
                "cairn.data-dir=" + dataB,
                "--setting",
                "cairn.broker.uri=" + amqp());
        assertEquals(0, restore.exit(), restore.toString());

        // again into the same, now not empty: refused, naming what is there, and nothing changes
        CairnCli.Run again = restorer.run(
                Duration.ofMinutes(3),
                null,
                "storage",
                "restore",
                backups.toString(),
                "--setting",
                "cairn.database.url=" + target.jdbcUrl(),
                "--setting",
                "cairn.data-dir=" + dataB,
                "--setting",
                "cairn.broker.uri=" + amqp());
        assertAll(
                () -> assertEquals(5, again.exit(), again.toString()),
                () -> assertTrue(again.err().contains("not empty"), again.toString()),
                () -> assertTrue(again.err().contains("node ("), again.toString()));

        try (CairnServerProcess server = CairnServerProcess.builder("storage-target", dataB)
                .database(target)
                .broker(broker)
                .setting("cairn.broker.prefix", "target")
                .start()
                .awaitReady()) {
            CairnCli cairn = CairnCli.against(work.resolve("home3"), server.url(), token);
            JsonNode infoAfter = cairn.run("storage", "info", "--json").json();
            assertEquals(infoBefore.get("nodes"), infoAfter.get("nodes"), infoAfter.toString());
            assertEquals(infoBefore.get("links"), infoAfter.get("links"), infoAfter.toString());
            HttpResponse<byte[]> bytes = HttpClient.newHttpClient()
                    .send(
                            server.request("/api/v1/nodes/" + file + "/files/data.bin", token)
                                    .GET()
                                    .build(),
                            HttpResponse.BodyHandlers.ofByteArray());
            assertEquals(200, bytes.statusCode());
            assertArrayEquals(content, bytes.body());

            HttpResponse<String> play = server.send(server.request("/api/v1/processes/" + process + "/play", token)
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build());
            assertEquals(200, play.statusCode(), play.body());
            String state = "";
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (System.nanoTime() < deadline) {
                JsonNode detail = JSON.readTree(
                        server.get("/api/v1/processes/" + process, token).body());
                state = detail.get("process").get("state").asString();
                if (state.equals("finished")) {
                    break;
                }
                Thread.sleep(300);
            }
            assertEquals("finished", state);
            CairnCli.Run valid = cairn.run("storage", "validate", "--json");
            assertEquals(0, valid.exit(), valid.toString());
            // a full run only marks what nothing refers to; the report says when it goes
            CairnCli.Run full = cairn.run("storage", "maintain", "--full");
            assertEquals(0, full.exit(), full.toString());
            assertTrue(
                    full.out().contains("unreferenced objects for deletion (deleted after 1 h if still unreferenced)"),
                    full.toString());
            assertTrue(full.out().contains("delete 0 objects marked for deletion at least 1 h ago"), full.toString());
        }
    }

    @Test
    void validateFindsADamagedLooseObjectInAStoreFolder() throws Exception {
        Path store = work.resolve("store");
        try (Container c = Container.init(store, ContainerConfig.defaults())) {
            c.put("some content to damage".getBytes());
        }
        CairnCli cairn = new CairnCli(work.resolve("home"));
        CairnCli.Run good = cairn.run("storage", "validate", "--store", store.toString());
        assertEquals(0, good.exit(), good.toString());
        Path loose;
        try (Stream<Path> files = Files.walk(store.resolve("loose"))) {
            loose = files.filter(Files::isRegularFile).findFirst().orElseThrow();
        }
        byte[] b = Files.readAllBytes(loose);
        b[0] ^= 1;
        Files.write(loose, b);
        CairnCli.Run bad = cairn.run("storage", "validate", "--store", store.toString());
        assertAll(
                () -> assertEquals(1, bad.exit(), bad.toString()),
                () -> assertTrue(
                        bad.out().contains(loose.getFileName().toString().substring(0, 10)), bad.toString()),
                () -> assertFalse(bad.err().isBlank(), bad.toString()));
    }

    private static List<Path> backupFolders(Path backups) throws Exception {
        try (Stream<Path> entries = Files.list(backups)) {
            return entries.filter(p -> p.getFileName().toString().startsWith("backup-")
                            && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                    .toList();
        }
    }

    private static String amqp() {
        URI amqp = broker.server().amqp();
        int port = amqp.getPort() < 0 ? 5672 : amqp.getPort();
        return amqp.getScheme() + "://" + (amqp.getRawUserInfo() == null ? "" : amqp.getRawUserInfo() + "@")
                + amqp.getHost() + ":" + port + "/" + URLEncoder.encode(broker.vhost(), StandardCharsets.UTF_8);
    }

    /** {@code cairn storage index}: added (ready), listed, a bad type refused by name, dropped, dropped again refused. */
    private static void attributeIndexes(CairnCli cairn) {
        CairnCli.Run added = cairn.run("storage", "index", "add", "value", "--type", "number", "--json");
        assertEquals(0, added.exit(), added.toString());
        assertEquals("ready", added.json().get("state").asString(), added.toString());
        CairnCli.Run listed = cairn.run("storage", "index", "list");
        assertEquals(0, listed.exit(), listed.toString());
        assertTrue(
                listed.out().lines().anyMatch(l -> l.matches("value +number +ready +.*node_attrindex_number_.*")),
                listed.toString());
        CairnCli.Run badType = cairn.run("storage", "index", "add", "value", "--type", "boolean");
        assertEquals(2, badType.exit(), badType.toString());
        assertTrue(badType.err().contains("type 'boolean'"), badType.toString());
        CairnCli.Run dropped = cairn.run("storage", "index", "drop", "value", "--type", "number");
        assertEquals(0, dropped.exit(), dropped.toString());
        CairnCli.Run again = cairn.run("storage", "index", "drop", "value", "--type", "number");
        assertEquals(3, again.exit(), again.toString());
        assertTrue(again.err().contains("no index on attribute 'value' of type number"), again.toString());
    }
}
