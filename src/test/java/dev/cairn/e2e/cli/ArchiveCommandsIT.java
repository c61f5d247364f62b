package dev.cairn.e2e.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.e2e.CairnCli;
import dev.cairn.e2e.CairnServerProcess;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * {@code cairn archive} against a real server after a few processes ran: archives of everything and of a
 * group written whole (no .partial left), read here (info) and verified by the server (inspect), imported
 * back (nothing added); an existing file kept without --force, a dry run that writes nothing, and a file
 * damaged in the middle refused with exit code 2 and nothing imported.
 */
class ArchiveCommandsIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    static Path dataDir;

    @TempDir
    static Path home;

    @TempDir
    Path work;

    static CairnServerProcess server;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** 3 MiB that do not compress: more than one chunk of the archive's objects part. */
    static final byte[] FILE = new byte[3 << 20];

    static {
        new Random(16).nextBytes(FILE);
    }

    @BeforeAll
    static void startServerAndRunProcesses() {
        server = CairnServerProcess.builder("cli-archive", dataDir)
                .database(db)
                .broker(broker)
                .start()
                .awaitReady();
        for (String n : List.of("3", "4")) {
            CairnCli.Run run =
                    cairn().run("process", "submit", "examples.sum_series", "-i", "n=" + n, "-i", "batch=2", "--wait");
            assertEquals(0, run.exit(), run.toString());
            String uuid = run.out().strip().split(" ")[0];
            if (n.equals("3")) {
                assertRun(0, cairn().run("group", "create", "runs"));
                assertRun(0, cairn().run("group", "add", "runs", uuid));
            }
        }
        // a file, so that the archives carry an object: bytes that span the archive's chunks
        HttpResponse<String> upload =
                server.send(server.request("/api/v1/nodes/files?name=data.bin", server.adminToken())
                        .header("Content-Type", "application/octet-stream")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(FILE))
                        .build());
        assertEquals(201, upload.statusCode(), upload.body());
        String file = JSON.readTree(upload.body()).get("uuid").asString();
        assertRun(0, cairn().run("group", "add", "runs", file));
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private static CairnCli cairn() {
        return CairnCli.against(home, server.url(), server.adminToken());
    }

    private static void assertRun(int exit, CairnCli.Run run) {
        assertEquals(exit, run.exit(), run.toString());
    }

    private static long nodes() {
        return cairn().run("storage", "info", "--json").json().get("nodes").asLong();
    }

    @Test
    void archivesOfEverythingAndOfAGroupAreWrittenReadVerifiedAndImportedBackAddingNothing() throws Exception {
        Path all = work.resolve("all.cairn");
        CairnCli.Run created = cairn().run("archive", "create", all.toString(), "--all");
        assertRun(0, created);
        assertEquals(all.toString(), created.out().strip());
        assertTrue(created.err().contains(" nodes, ") && created.err().contains("1 object;"), created.toString());
        assertFalse(created.err().contains("WARNING"), "zstd-jni loads without the JDK's warning: " + created);
        assertTrue(Files.size(all) > 0);
        assertFalse(Files.exists(work.resolve("all.cairn.partial")), "the .partial was renamed");

        CairnCli.Run info = cairn().run("archive", "info", all.toString(), "--json");
        assertRun(0, info);
        JsonNode header = info.json();
        assertEquals("cairn", header.get("format").asString());
        assertEquals(nodes(), header.get("counts").get("nodes").asLong(), info.toString());
        assertTrue(header.get("parameters").get("entities").isNull(), "everything: " + info);
        CairnCli.Run table = cairn().run("archive", "info", all.toString());
        assertRun(0, table);
        assertTrue(table.out().contains("from:      everything"), table.toString());
        assertTrue(table.out().contains("nodes"), table.toString());

        CairnCli.Run inspected = cairn().run("archive", "inspect", all.toString(), "--json");
        assertRun(0, inspected);
        JsonNode parts = inspected.json().get("parts");
        header.get("counts")
                .properties()
                .forEach(count -> assertEquals(
                        count.getValue().asLong(),
                        parts.get(count.getKey()).get("count").asLong(),
                        count.getKey() + ": " + inspected));
        assertEquals(1, parts.get("objects").get("count").asLong(), inspected.toString());
        assertEquals(FILE.length, parts.get("objects").get("bytes").asLong(), inspected.toString());

        Path runs = work.resolve("runs.cairn");
        CairnCli.Run group = cairn().run("archive", "create", runs.toString(), "--group", "runs", "--json");
        assertRun(0, group);
        JsonNode ofGroup = group.json();
        assertEquals(1, ofGroup.get("counts").get("groups").asLong(), group.toString());
        assertEquals(1, ofGroup.get("counts").get("objects").asLong(), group.toString());
        long groupNodes = ofGroup.get("counts").get("nodes").asLong();
        assertTrue(
                groupNodes > 1 && groupNodes < header.get("counts").get("nodes").asLong(),
                "the group's closure is a piece: " + group);

        long before = nodes();
        CairnCli.Run imported = cairn().run("archive", "import", all.toString(), "--json");
        assertRun(0, imported);
        imported.json()
                .get("added")
                .properties()
                .forEach(added -> assertEquals(0, added.getValue().asLong(), added.getKey() + ": " + imported));
        assertEquals(before, imported.json().get("existing").asLong(), imported.toString());
        CairnCli.Run again = cairn().run("archive", "import", runs.toString(), "--merge-comments", "newest");
        assertRun(0, again);
        assertTrue(again.err().contains("nothing new"), again.toString());
        assertEquals(before, nodes());

        Path aiida = work.resolve("runs.aiida");
        assertRun(0, cairn().run("archive", "create", aiida.toString(), "--group", "runs", "--format", "aiida"));
        CairnCli.Run aiidaInfo = cairn().run("archive", "info", aiida.toString(), "--json");
        assertRun(0, aiidaInfo);
        assertEquals(groupNodes, aiidaInfo.json().get("counts").get("nodes").asLong(), aiidaInfo.toString());
        CairnCli.Run aiidaImported = cairn().run("archive", "import", aiida.toString(), "--json");
        assertRun(0, aiidaImported);
        assertEquals(0, aiidaImported.json().get("added").get("nodes").asLong(), aiidaImported.toString());
        assertEquals(groupNodes, aiidaImported.json().get("existing").asLong(), aiidaImported.toString());
    }

    @Test
    void anExistingFileIsKeptWithoutForceAndADryRunWritesNothing() throws Exception {
        Path file = Files.writeString(work.resolve("kept.cairn"), "mine");
        CairnCli.Run refused = cairn().run("archive", "create", file.toString(), "--group", "runs");
        assertRun(2, refused);
        assertTrue(refused.err().contains("--force"), refused.toString());
        assertEquals("mine", Files.readString(file));
        assertRun(0, cairn().run("archive", "create", file.toString(), "--group", "runs", "--force"));
        assertEquals(
                "cairn",
                cairn().run("archive", "info", file.toString(), "--json")
                        .json()
                        .get("format")
                        .asString());

        Path dry = work.resolve("dry.cairn");
        CairnCli.Run counted = cairn().run("archive", "create", dry.toString(), "--all", "--dry-run");
        assertRun(0, counted);
        assertTrue(counted.out().contains("nodes"), counted.toString());
        assertTrue(counted.err().contains("nothing was written"), counted.toString());
        assertFalse(Files.exists(dry));
        assertFalse(Files.exists(work.resolve("dry.cairn.partial")));

        assertRun(2, cairn().run("archive", "create", dry.toString()));
        CairnCli.Run unknown = cairn().run("archive", "create", dry.toString(), "--group", "no-such-group");
        assertRun(2, unknown);
        assertTrue(unknown.err().contains("no group is labelled 'no-such-group'"), unknown.toString());
        assertFalse(Files.exists(dry));
    }

    @Test
    void aFileDamagedInTheMiddleIsRefusedByImportAndInspectAndNothingIsImported() throws Exception {
        Path good = work.resolve("good.cairn");
        assertRun(0, cairn().run("archive", "create", good.toString(), "--all"));
        byte[] bytes = Files.readAllBytes(good);
        for (int i = bytes.length / 2; i < bytes.length / 2 + 16; i++) {
            bytes[i] = (byte) ~bytes[i];
        }
        Path damaged = Files.write(work.resolve("damaged.cairn"), bytes);
        long before = nodes();
        for (String verb : List.of("import", "inspect")) {
            CairnCli.Run refused = cairn().run("archive", verb, damaged.toString());
            assertRun(2, refused);
            assertTrue(refused.err().startsWith("cairn: "), refused.toString());
            assertTrue(
                    refused.err().contains("archive") || refused.err().contains(" part"),
                    "the message says what is wrong: " + refused);
        }
        assertEquals(before, nodes());

        Path notes = Files.writeString(work.resolve("notes.txt"), "not an archive");
        CairnCli.Run info = cairn().run("archive", "info", notes.toString());
        assertRun(2, info);
        assertTrue(info.err().contains("is not an archive"), info.toString());
        assertRun(
                2,
                cairn().run("archive", "import", work.resolve("missing.cairn").toString()));
        // the extras' merge letters are the server's to check: its refusal is what the command line says
        CairnCli.Run letters = cairn().run("archive", "import", good.toString(), "--merge-extras", "xyz");
        assertRun(2, letters);
        assertTrue(letters.err().contains("merge mode for extras 'xyz'"), letters.toString());

        // a token that may read is refused the import before the server reads the upload's megabytes
        CairnCli.Run token = cairn().run("token", "create", "--role", "read");
        assertRun(0, token);
        CairnCli reader = CairnCli.against(home, server.url(), token.out().strip());
        CairnCli.Run refused = reader.run("archive", "import", good.toString());
        assertRun(4, refused);
        assertTrue(refused.err().contains("do not allow POST /api/v1/archive"), refused.toString());
        assertRun(0, reader.run("archive", "inspect", good.toString()));
        assertEquals(before, nodes());
    }
}
