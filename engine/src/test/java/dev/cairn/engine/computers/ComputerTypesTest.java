package dev.cairn.engine.computers;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.computers.ComputerSpec;

/** A computer the engine could not run a job on is refused before it is stored, naming what would do. */
class ComputerTypesTest {

    private static final Map<String, Object> WORKDIR = Map.of("workdir", "/scratch/cairn");

    @Test
    void knownTypesPassWithOrWithoutTheirPrefix() {
        assertDoesNotThrow(() -> ComputerTypes.check(spec("core.local", "core.direct", WORKDIR)));
        assertDoesNotThrow(() -> ComputerTypes.check(spec("local", "slurm", WORKDIR)));
        assertDoesNotThrow(() -> ComputerTypes.check(spec(
                "core.ssh",
                "core.pbspro",
                Map.of("workdir", "/w", "transport_params", Map.of("username", "me", "key_filename", "/k")))));
    }

    @Test
    void anUnknownTypeNamesTheKnownOnes() {
        assertEquals(
                "unknown transport type 'core.ftp'; the transport types are core.local, core.ssh",
                message(spec("core.ftp", "core.direct", WORKDIR)));
        assertEquals(
                "unknown scheduler type 'lsf'; the scheduler types are core.direct, core.pbspro, core.slurm,"
                        + " core.torque",
                message(spec("core.local", "lsf", WORKDIR)));
    }

    @Test
    void settingsAreCheckedByName() {
        assertEquals(
                "unknown computer setting workdri; the settings are append_text, connection_keep_alive,"
                        + " default_mpiprocs_per_machine, max_connections, minimum_job_poll_interval,"
                        + " mpirun_command, prepend_text, retry_attempts, retry_initial_interval,"
                        + " submissions_per_minute, transport_params, workdir",
                message(spec("core.local", "core.direct", Map.of("workdri", "/w"))));
        assertEquals(
                "computer c has no absolute 'workdir' in its settings (got null)",
                message(spec("core.local", "core.direct", Map.of())));
        assertEquals(
                "computer c: 'max_connections' must be a number of at least 1, not 0",
                message(spec("core.local", "core.direct", Map.of("workdir", "/w", "max_connections", 0))));
        assertEquals(
                "an SSH transport to me@login needs a private key file or a password",
                message(spec(
                        "core.ssh",
                        "core.slurm",
                        Map.of("workdir", "/w", "transport_params", Map.of("username", "me")))));
        assertEquals(
                "unknown ssh transport parameter 'proxy' for login; known: [host_key_policy, key_filename,"
                        + " known_hosts, port, timeout, username]",
                message(spec(
                        "core.ssh", "core.slurm", Map.of("workdir", "/w", "transport_params", Map.of("proxy", "x")))));
    }

    private static ComputerSpec spec(String transport, String scheduler, Map<String, Object> settings) {
        return new ComputerSpec("c", "login", "", transport, scheduler, settings);
    }

    private static String message(ComputerSpec spec) {
        return assertThrows(InvalidInputException.class, () -> ComputerTypes.check(spec))
                .getMessage();
    }
}
