package dev.cairn.api.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.Multipart;
import dev.cairn.api.testing.ServerJvm;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * Uploads stream: a 2 GiB file goes through a server whose heap is 256 MiB, as a multipart part
 * and as a raw body, and comes back with the SHA-256 it was sent with. The server runs in a JVM of
 * its own (the test JVM's heap is not the one to bound), and the 2 GiB come from a generator:
 * nothing of that size exists on the test's side.
 */
class LargeUploadIT {

    static final long SIZE = 2L << 30;

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    static Path dataDir;

    /** {@code size} bytes of a fixed pseudo-random pattern, digested as they are read. */
    static final class Generated extends InputStream {
        private static final byte[] BLOCK = new byte[1 << 20];

        static {
            new Random(42).nextBytes(BLOCK);
        }

        private final MessageDigest sha;
        private long left;

        Generated(long size) {
            this.left = size;
            try {
                this.sha = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (left == 0) {
                return -1;
            }
            long position = SIZE - left;
            int at = (int) (position % BLOCK.length);
            int n = (int) Math.min(Math.min(len, BLOCK.length - at), left);
            System.arraycopy(BLOCK, at, b, off, n);
            // each MiB differs from the others in its first bytes
            if (at == 0 && n >= 8) {
                long mib = position >>> 20;
                for (int i = 0; i < 8; i++) {
                    b[off + i] ^= (byte) (mib >>> (8 * i));
                }
            }
            sha.update(b, off, n);
            left -= n;
            return n;
        }

        String hex() {
            return HexFormat.of().formatHex(sha.digest());
        }
    }

    static String sha256(InputStream in) throws IOException, NoSuchAlgorithmException {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] buffer = new byte[1 << 20];
        long total = 0;
        for (int n; (n = in.read(buffer)) > 0; ) {
            sha.update(buffer, 0, n);
            total += n;
        }
        assertEquals(SIZE, total);
        return HexFormat.of().formatHex(sha.digest());
    }

    @Test
    void twoGibStreamThroughA256MibHeapAndComeBackWithTheirSha256() throws Exception {
        try (ServerJvm server = ServerJvm.start(
                db, broker, dataDir, List.of("-Xmx256m"), List.of("--cairn.limits.upload-max-size=3GB"))) {
            Api api = server.admin();

            Generated multipartContent = new Generated(SIZE);
            Api.Response made = new Multipart()
                    .file("file", "big.bin", SIZE, () -> multipartContent)
                    .post(api, "/api/v1/nodes/files");
            assertEquals(201, made.status(), made + "\n" + server.tail());
            String sent = multipartContent.hex();
            JsonNode listing = api.get(
                            "/api/v1/nodes/" + made.json().get("uuid").asString() + "/files")
                    .json()
                    .get("entries")
                    .get(0);
            assertEquals(SIZE, listing.get("size").asLong());
            assertEquals(sent, listing.get("key").asString(), "the object key is the SHA-256 of what was sent");

            HttpResponse<InputStream> back = api.stream(
                    api.request("/api/v1/nodes/" + made.json().get("uuid").asString() + "/files/big.bin")
                            .GET());
            assertEquals(200, back.statusCode());
            try (InputStream in = back.body()) {
                assertEquals(sent, sha256(in), "the download reads back what was sent");
            }

            Generated rawContent = new Generated(SIZE);
            Api.Response raw = api.send(api.request("/api/v1/nodes/files?name=big.bin")
                    .timeout(Duration.ofMinutes(10))
                    .header("Content-Type", "application/octet-stream")
                    .POST(HttpRequest.BodyPublishers.fromPublisher(
                            HttpRequest.BodyPublishers.ofInputStream(() -> rawContent), SIZE)));
            assertEquals(201, raw.status(), raw + "\n" + server.tail());
            assertEquals(sent, rawContent.hex());
            assertEquals(
                    sent,
                    api.get("/api/v1/nodes/" + raw.json().get("uuid").asString() + "/files")
                            .json()
                            .get("entries")
                            .get(0)
                            .get("key")
                            .asString());
            assertTrue(server.isAlive(), "the server lived through it: " + server.tail());
        }
    }
}
