package dev.cairn.api.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServicesFileTest {

    @TempDir
    Path dataDir;

    @Test
    void publishesTheEmbeddedServicesToTheOwnerAloneAndDeletesThemAtStop() throws IOException {
        ServicesFile file = ServicesFile.write(
                dataDir, "jdbc:postgresql://localhost:5555/cairn?user=postgres", "amqp://cairn:pw@127.0.0.1:5556/");

        Path path = dataDir.resolve(ServicesFile.NAME);
        List<String> lines = Files.readAllLines(path);
        assertEquals(
                List.of(
                        "--cairn.database.url=jdbc:postgresql://localhost:5555/cairn?user=postgres",
                        "--cairn.broker.uri=amqp://cairn:pw@127.0.0.1:5556/"),
                lines.subList(1, lines.size()));
        assertTrue(lines.getFirst().startsWith("# "), lines.toString());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(path)));
        try (Stream<Path> files = Files.list(dataDir)) {
            assertEquals(List.of(path), files.toList(), "no temporary file is left");
        }

        file.delete();
        assertFalse(Files.exists(path));
    }

    @Test
    void anExternalServiceIsNotPublishedAndANewStartReplacesAStaleFile() throws IOException {
        ServicesFile.write(dataDir, "jdbc:postgresql://localhost:1/cairn", "amqp://cairn:old@127.0.0.1:2/");

        ServicesFile.write(dataDir, null, "amqp://cairn:new@127.0.0.1:3/");

        List<String> lines = Files.readAllLines(dataDir.resolve(ServicesFile.NAME));
        assertEquals(List.of("--cairn.broker.uri=amqp://cairn:new@127.0.0.1:3/"), lines.subList(1, lines.size()));
    }
}
