package dev.cairn.e2e;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * {@code kill -9} of the server while it streams an upload into the object store: the bytes it had
 * taken lie in the container's sandbox, where every write lands before its rename, and nowhere else.
 * No node, no link and no object was made of them, and the next start deletes the leftover.
 */
class UploadKillIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final long DECLARED = 1L << 30;
    private static final int SENT_BEFORE_KILL = 96 << 20;

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    Path dataDir;

    @Test
    void aServerKilledDuringAnUploadLeavesNoNodeNoObjectAndNoFileBehind() throws Exception {
        Path objects = dataDir.resolve("objects");
        long nodesBefore;
        List<Path> storedBefore;
        try (CairnServerProcess server = CairnServerProcess.builder("upload-kill", dataDir)
                .database(db)
                .broker(broker)
                .roles("api")
                .start()
                .awaitReady()) {
            nodesBefore = nodes();
            storedBefore = storedObjects(objects);
            try (Socket socket = new Socket("127.0.0.1", server.port())) {
                OutputStream out = socket.getOutputStream();
                out.write(("POST /api/v1/nodes/files?name=big.bin HTTP/1.1\r\n"
                                + "Host: 127.0.0.1\r\n"
                                + "Authorization: Bearer " + server.adminToken() + "\r\n"
                                + "Content-Type: application/octet-stream\r\n"
                                + "Content-Length: " + DECLARED + "\r\n\r\n")
                        .getBytes(US_ASCII));
                byte[] block = new byte[1 << 20];
                for (int sent = 0; sent < SENT_BEFORE_KILL; sent += block.length) {
                    Arrays.fill(block, (byte) sent); // no two blocks alike: nothing compresses it away
                    out.write(block);
                }
                out.flush();
                awaitSandboxHolding(objects, SENT_BEFORE_KILL / 2, server);

                server.kill9();
            }

            assertEquals(nodesBefore, nodes(), "no node was stored of the upload");
            assertEquals(storedBefore, storedObjects(objects), "no object was made of it");
            assertTrue(largestSandboxFile(objects) >= SENT_BEFORE_KILL / 2, "its bytes are a leftover in the sandbox");
        }

        try (CairnServerProcess again = CairnServerProcess.builder("upload-kill-restart", dataDir)
                .database(db)
                .broker(broker)
                .roles("api")
                .start()
                .awaitReady()) {
            assertEquals(0, largestSandboxFile(objects), "the next start deleted the leftover");
            assertEquals(nodesBefore, nodes());

            HttpResponse<String> uploaded =
                    again.send(again.request("/api/v1/nodes/files?name=small.txt", again.adminToken())
                            .header("Content-Type", "application/octet-stream")
                            .POST(HttpRequest.BodyPublishers.ofString("after the crash"))
                            .build());
            assertEquals(201, uploaded.statusCode(), uploaded.body());
            String uuid = JSON.readTree(uploaded.body()).get("uuid").asString();
            HttpResponse<String> read = again.get("/api/v1/nodes/" + uuid + "/files/small.txt");
            assertEquals("after the crash", read.body(), "uploads work as before");
            assertEquals(nodesBefore + 1, nodes());
        }
    }

    /** Waits until the server has streamed at least {@code bytes} of the upload into a sandbox file. */
    private static void awaitSandboxHolding(Path objects, long bytes, CairnServerProcess server)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (largestSandboxFile(objects) < bytes) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the upload did not reach the sandbox: " + largestSandboxFile(objects)
                        + " bytes there" + server.logTail());
            }
            Thread.sleep(50);
        }
    }

    private static long largestSandboxFile(Path objects) throws IOException {
        Path sandbox = objects.resolve("sandbox");
        if (!Files.isDirectory(sandbox)) {
            return 0;
        }
        try (Stream<Path> files = Files.list(sandbox)) {
            return files.mapToLong(f -> f.toFile().length()).max().orElse(0);
        }
    }

    /** The container's files outside its sandbox: loose objects, packs and their index. */
    private static List<Path> storedObjects(Path objects) throws IOException {
        try (Stream<Path> files = Files.walk(objects)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> f.startsWith(objects.resolve("loose")) || f.startsWith(objects.resolve("packs")))
                    .map(objects::relativize)
                    .sorted()
                    .toList();
        }
    }

    private static long nodes() throws Exception {
        try (Connection c = db.connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM node")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
