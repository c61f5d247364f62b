package dev.cairn.cli.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;

class ServerSettingsTest {

    @Test
    void settingsPassThroughAndAnythingElseIsAUsageErrorNamingIt() {
        assertEquals(
                List.of("--cairn.worker.slots=8", "--cairn.database.url=jdbc:postgresql://h/db?user=a&password=b"),
                ServerSettings.parse(
                        List.of(
                                "--cairn.worker.slots=8",
                                "--cairn.database.url=jdbc:postgresql://h/db?user=a&password=b"),
                        "cairn up"));
        assertEquals(List.of(), ServerSettings.parse(null, "cairn up"));
        for (String wrong : List.of("--cairn.worker.slots", "-x", "slots=8", "--=1")) {
            CliException e = assertThrows(CliException.class, () -> ServerSettings.parse(List.of(wrong), "cairn up"));
            assertEquals(ExitCodes.USAGE, e.exitCode());
            assertTrue(e.getMessage().contains("'" + wrong + "'"), e.getMessage());
        }
        CliException dataDir = assertThrows(
                CliException.class, () -> ServerSettings.parse(List.of("--cairn.data-dir=/x"), "cairn up"));
        assertTrue(dataDir.getMessage().contains("--data-dir"), dataDir.getMessage());
        CliException port =
                assertThrows(CliException.class, () -> ServerSettings.parse(List.of("--server.port=1"), "cairn up"));
        assertTrue(port.getMessage().contains("--port"), port.getMessage());
    }

    @Test
    void aSettingIsGivenAsAnArgumentWithAValueOrAsItsVariable() {
        String key = "cairn.database.url";
        String variable = "CAIRN_DATABASE_URL";
        assertTrue(ServerSettings.given(List.of("--cairn.database.url=jdbc:x"), Map.of(), key, variable));
        assertFalse(ServerSettings.given(List.of("--cairn.database.url="), Map.of(), key, variable));
        assertTrue(ServerSettings.given(List.of(), Map.of(variable, "jdbc:x"), key, variable));
        assertFalse(ServerSettings.given(List.of(), Map.of(variable, " "), key, variable));
    }

    @Test
    void theServersEnvironmentLeavesOutTheCommandLinesOwnVariables() {
        Map<String, String> env = ServerSettings.environment(
                Map.of("CAIRN_URL", "http://x", "CAIRN_TOKEN", "t", "CAIRN_DATABASE_URL", "jdbc:x", "PATH", "/bin"));
        assertEquals(Map.of("CAIRN_DATABASE_URL", "jdbc:x", "PATH", "/bin"), env);
    }

    @Test
    void thePortIsTheOptionElseTheVariableElse8080() {
        assertEquals(9090, ServerSettings.port(9090, Map.of("CAIRN_PORT", "7070")));
        assertEquals(7070, ServerSettings.port(null, Map.of("CAIRN_PORT", "7070")));
        assertEquals(8080, ServerSettings.port(null, Map.of()));
        assertEquals(
                ExitCodes.USAGE,
                assertThrows(CliException.class, () -> ServerSettings.port(null, Map.of("CAIRN_PORT", "http")))
                        .exitCode());
    }

    @Test
    void savedSettingsAreReadableByTheirOwnerOnlyAndReadBack(@TempDir Path dataDir) throws Exception {
        ServerSettings.save(dataDir, List.of("--cairn.database.url=jdbc:postgresql://h/db?password=secret"), false);
        assertEquals(
                List.of("--cairn.database.url=jdbc:postgresql://h/db?password=secret"), ServerSettings.saved(dataDir));
        assertEquals(
                "rw-------",
                PosixFilePermissions.toString(Files.getPosixFilePermissions(dataDir.resolve("server.settings"))));
        ServerSettings.save(dataDir, List.of(), true);
        assertEquals(List.of(ServerSettings.EMBEDDED), ServerSettings.saved(dataDir));
    }

    @Test
    void theEmbeddedServicesAServerPublishesReplaceTheSameSettingsAndAreAbsentWhenItDoesNotRun(@TempDir Path dir)
            throws Exception {
        assertTrue(ServerSettings.published(dir).isEmpty());
        Files.write(
                dir.resolve("services.settings"),
                List.of(
                        "# the embedded services of the server of pid 1",
                        "--cairn.broker.uri=amqp://c:p@127.0.0.1:9/"));

        List<String> published = ServerSettings.published(dir).orElseThrow();

        assertEquals(List.of("--cairn.broker.uri=amqp://c:p@127.0.0.1:9/"), published);
        assertEquals(
                List.of("--cairn.worker.slots=2", "--cairn.broker.uri=amqp://c:p@127.0.0.1:9/"),
                ServerSettings.overriding(
                        List.of("--cairn.broker.uri=amqp://old@h:1/", "--cairn.worker.slots=2"), published));
    }
}
