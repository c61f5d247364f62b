package dev.cairn.engine.computers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.engine.testing.TestEngine;
import dev.cairn.engine.testing.TestSshServer;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerSpec;
import dev.cairn.storage.graph.computers.ComputerStore;

/**
 * A computer test runs every check on this machine and over SSH, and reports a computer that is
 * down, a work directory that cannot be made, missing commands and bad settings as failed checks
 * with the reason, never as an exception.
 */
class ComputerCheckIT {

    @RegisterExtension
    static final TestEngine fixture = TestEngine.local();

    @TempDir
    static Path tmp;

    static ComputerStore computers;
    static TestSshServer sshd;

    @BeforeAll
    static void open() throws Exception {
        computers = new ComputerStore(fixture.engine().database());
        sshd = TestSshServer.start(Files.createDirectories(tmp.resolve("keys")));
    }

    @AfterAll
    static void close() throws Exception {
        sshd.close();
    }

    private static final List<String> ALL =
            List.of("settings", "connection", "whoami", "output", "workdir", "scheduler");

    @Test
    void thisMachinePassesEveryCheckAndItsWorkDirectoryIsMade() {
        Path workdir = tmp.resolve("local/work");
        Computer local = computers.create(new ComputerSpec(
                "here", "localhost", "", "core.local", "core.direct", Map.of("workdir", workdir.toString())));
        ComputerTestReport report = fixture.engine().testComputer(local);
        assertTrue(report.ok(), report.toString());
        assertEquals(ALL, names(report));
        assertEquals(
                "logged in as " + System.getProperty("user.name"),
                check(report, "whoami").message());
        assertEquals(
                workdir + " was made and is writable", check(report, "workdir").message());
        assertTrue(Files.isDirectory(workdir));
        assertTrue(report.checks().stream().allMatch(c -> !c.took().isNegative()));
        // the probe file is gone, and a second run finds the directory
        assertEquals(0, workdir.toFile().list().length);
        assertEquals(
                workdir + " exists and is writable",
                check(fixture.engine().testComputer(local), "workdir").message());
    }

    @Test
    void anSshComputerPassesAndOnceItIsDownTheConnectionFails() throws Exception {
        Map<String, Object> settings = Map.of(
                "workdir",
                tmp.resolve("ssh/work").toString(),
                "connection_keep_alive",
                0,
                "transport_params",
                sshd.transportParams(tmp.resolve("known_hosts")));
        ComputerTypes.check(new ComputerSpec("login", "127.0.0.1", "", "core.ssh", "core.direct", settings));
        Computer login =
                computers.create(new ComputerSpec("login", "127.0.0.1", "", "core.ssh", "core.direct", settings));
        ComputerTestReport up = fixture.engine().testComputer(login);
        assertTrue(up.ok(), up.toString());
        assertEquals(ALL, names(up));

        sshd.stop();
        try {
            ComputerTestReport down = fixture.engine().testComputer(login);
            assertFalse(down.ok());
            assertEquals(List.of("settings", "connection"), names(down));
            CheckResult connection = check(down, "connection");
            assertFalse(connection.ok());
            assertTrue(connection.message().contains("127.0.0.1"), connection.message());
        } finally {
            sshd.restart();
        }
    }

    @Test
    void aWorkDirectoryThatCannotBeMadeFailsAloneWithItsReason() {
        Computer local = computers.create(new ComputerSpec(
                "no-workdir", "localhost", "", "core.local", "core.direct", Map.of("workdir", "/proc/cairn/work")));
        ComputerTestReport report = fixture.engine().testComputer(local);
        assertFalse(report.ok());
        assertEquals(ALL, names(report));
        List<String> failed = report.checks().stream()
                .filter(c -> !c.ok())
                .map(CheckResult::name)
                .toList();
        assertEquals(List.of("workdir"), failed);
        assertTrue(check(report, "workdir").message().contains("/proc/cairn/work"), report.toString());
    }

    @Test
    void commandsThatAreMissingFailTheirChecks() {
        Map<String, Object> settings = new HashMap<>();
        settings.put("workdir", tmp.resolve("nopath").toString());
        settings.put(
                "transport_params",
                Map.of("environment", Map.of("PATH", tmp.resolve("empty").toString())));
        Computer local =
                computers.create(new ComputerSpec("no-path", "localhost", "", "core.local", "core.direct", settings));
        ComputerTestReport report = fixture.engine().testComputer(local);
        assertFalse(report.ok());
        assertFalse(check(report, "whoami").ok());
        assertTrue(check(report, "whoami").message().contains("exit code 127"), report.toString());
        assertFalse(check(report, "scheduler").ok(), report.toString());
        // echo is a shell builtin, and files go through the transport without commands
        assertTrue(check(report, "output").ok(), report.toString());
        assertTrue(check(report, "workdir").ok(), report.toString());
    }

    @Test
    void badSettingsStopTheTestBeforeAnyConnection() {
        Computer relative = computers.create(
                new ComputerSpec("relative", "localhost", "", "core.local", "core.direct", Map.of("workdir", "work")));
        ComputerTestReport report = fixture.engine().testComputer(relative);
        assertFalse(report.ok());
        assertEquals(List.of("settings"), names(report));
        assertEquals(
                "computer relative has no absolute 'workdir' in its settings (got work)",
                check(report, "settings").message());
    }

    private static List<String> names(ComputerTestReport report) {
        return report.checks().stream().map(CheckResult::name).toList();
    }

    private static CheckResult check(ComputerTestReport report, String name) {
        return report.checks().stream()
                .filter(c -> c.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no check " + name + " in " + report));
    }
}
