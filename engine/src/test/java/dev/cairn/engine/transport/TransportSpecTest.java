package dev.cairn.engine.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;

class TransportSpecTest {

    @Test
    void aComputersSshParametersBecomeASpecWithDefaults() {
        var spec = (TransportSpec.Ssh) TransportSpec.of(
                "core.ssh",
                "hpc.example.org",
                Map.of("username", "ada", "key_filename", "~/.ssh/id_ed25519", "port", "2222", "timeout", 7.5));
        assertEquals("ada@hpc.example.org:2222", spec.where());
        assertEquals(Path.of(System.getProperty("user.home"), ".ssh", "id_ed25519"), spec.keyFile());
        assertEquals(Duration.ofMillis(7500), spec.connectTimeout());
        assertEquals(HostKeyPolicy.ACCEPT_NEW, spec.hostKeyPolicy());
        assertEquals(Path.of(System.getProperty("user.home"), ".ssh", "known_hosts"), spec.knownHosts());
    }

    @Test
    void aPasswordStandsInForAKeyFile() {
        var spec = TransportSpec.Ssh.withKey("hpc", "ada", Path.of("/k"))
                .withPassword("secret")
                .withPort(2200);
        assertEquals("secret", spec.password());
        assertEquals("ada@hpc:2200", spec.where());
        assertThrows(InvalidInputException.class, () -> TransportSpec.Ssh.withKey("hpc", "ada", null));
    }

    @Test
    void anUnknownParameterIsRefusedByName() {
        var e = assertThrows(
                InvalidInputException.class,
                () -> TransportSpec.of("ssh", "hpc", Map.of("key_filename", "/k", "proxy_jump", "gateway")));
        assertTrue(e.getMessage().contains("'proxy_jump'"), e.getMessage());
    }

    @Test
    void localTakesNoParametersAndUnknownTypesAreRefused() {
        assertEquals(new TransportSpec.Local(), TransportSpec.of("core.local", "localhost", Map.of()));
        assertThrows(InvalidInputException.class, () -> TransportSpec.of("core.local", "localhost", Map.of("port", 1)));
        assertThrows(InvalidInputException.class, () -> TransportSpec.of("core.ftp", "host", Map.of()));
    }

    @Test
    void anSshSpecNeedsAKeyOrAPasswordAndNeverPrintsThePassword() {
        assertThrows(
                InvalidInputException.class,
                () -> new TransportSpec.Ssh("hpc", 22, "ada", null, null, null, null, null));
        var spec = new TransportSpec.Ssh("hpc", 22, "ada", null, "hunter2", null, HostKeyPolicy.STRICT, null);
        assertFalse(spec.toString().contains("hunter2"), spec.toString());
        assertEquals(HostKeyPolicy.STRICT, HostKeyPolicy.parse("yes"));
        assertThrows(InvalidInputException.class, () -> HostKeyPolicy.parse("no"));
    }
}
