package dev.cairn.cli.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code node repo dump}: files into a new or empty folder, and nothing left behind when one fails. */
class RemoteNodeFilesTest {

    private static final String LISTING = "{\"node\": \"n\", \"path\": \"\", \"entries\": ["
            + "{\"name\": \"a.txt\", \"path\": \"a.txt\", \"type\": \"file\", \"size\": 5},"
            + "{\"name\": \"b.txt\", \"path\": \"sub/b.txt\", \"type\": \"file\", \"size\": 4}]}";

    @TempDir
    Path dir;

    HttpServer server;

    @AfterEach
    void stop() {
        server.stop(0);
    }

    RemoteNodeFiles files(boolean secondFails) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            if (path.endsWith("/files")) {
                answer(exchange, 200, LISTING);
            } else if (path.endsWith("/files/a.txt")) {
                answer(exchange, 200, "alpha");
            } else {
                answer(exchange, secondFails ? 500 : 200, secondFails ? "{\"detail\": \"disk on fire\"}" : "beta");
            }
        });
        server.start();
        URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort());
        return new RemoteNodeFiles(new CairnClient(new Target(url, "t", "test"), Duration.ofSeconds(10)), "n");
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Test
    void everyFileIsWrittenUnderTheFolder() throws IOException {
        Path dest = dir.resolve("dump");
        assertEquals(2, files(false).dump(dest).size());
        assertArrayEquals("alpha".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(dest.resolve("a.txt")));
        assertArrayEquals("beta".getBytes(StandardCharsets.UTF_8), Files.readAllBytes(dest.resolve("sub/b.txt")));
    }

    @Test
    void aFailedDumpLeavesNoFolderItMadeAndAnEmptyOneEmpty() throws IOException {
        RemoteNodeFiles files = files(true);
        Path fresh = dir.resolve("fresh");
        assertThrows(CliException.class, () -> files.dump(fresh));
        assertFalse(Files.exists(fresh), "the folder it made is gone");

        Path empty = Files.createDirectory(dir.resolve("empty"));
        assertThrows(CliException.class, () -> files.dump(empty));
        assertTrue(Files.isDirectory(empty), "a folder it did not make stays");
        try (var left = Files.list(empty)) {
            assertEquals(0, left.count(), "and is empty again");
        }
    }

    @Test
    void aFolderThatIsNotEmptyIsRefusedUntouched() throws IOException {
        RemoteNodeFiles files = files(false);
        Path full = Files.createDirectory(dir.resolve("full"));
        Files.writeString(full.resolve("keep"), "x");
        CliException e = assertThrows(CliException.class, () -> files.dump(full));
        assertEquals(ExitCodes.USAGE, e.exitCode());
        assertEquals("x", Files.readString(full.resolve("keep")));
    }
}
