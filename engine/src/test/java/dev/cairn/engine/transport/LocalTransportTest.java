package dev.cairn.engine.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@link TransportContract} on this machine, and what its kept shells must not let through. */
class LocalTransportTest extends TransportContract {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Transport transport = new LocalTransport();

    @TempDir
    Path computer;

    @Override
    protected Transport transport() {
        return transport;
    }

    @Override
    protected String scratch() {
        return computer.toString();
    }

    @AfterEach
    void close() {
        transport.close();
    }

    @Test
    void aCommandLeavesNoDirectoryVariableOrFunctionToTheNext() {
        transport.mkdirs(scratch() + "/sub");
        transport.exec("cd sub; x=1; export y=2; f() { echo f; }; set -e", scratch(), TIMEOUT);
        CommandResult r = transport.exec(
                "pwd; echo \"${x:-unset} ${y:-unset}\"; command -v f || echo no-f; false; echo on", scratch(), TIMEOUT);
        assertEquals(new CommandResult(0, scratch() + "\nunset unset\nno-f\non\n", ""), r);
    }

    @Test
    void aBackgroundJobStillWritingDoesNotReachTheNextCommandsOutput() throws InterruptedException {
        transport.exec("(sleep 0.3; echo late; echo late >&2) & echo now", scratch(), TIMEOUT);
        List<CommandResult> later = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            later.add(transport.exec("echo " + i, scratch(), TIMEOUT));
            Thread.sleep(100);
        }
        for (int i = 0; i < later.size(); i++) {
            assertEquals(new CommandResult(0, i + "\n", ""), later.get(i));
        }
    }

    @Test
    void aShellKilledWhileIdleIsReplaced() {
        String pid = transport.exec("echo $$", scratch(), TIMEOUT).stdout().strip();
        ProcessHandle shell = ProcessHandle.of(Long.parseLong(pid)).orElseThrow();
        shell.destroyForcibly();
        shell.onExit().join();
        CommandResult r = transport.exec("echo $$; echo ok", scratch(), TIMEOUT);
        assertTrue(r.ok(), r.toString());
        assertNotEquals(pid, r.stdout().lines().findFirst().orElseThrow());
        assertTrue(r.stdout().endsWith("ok\n"), r.stdout());
    }

    @Test
    void concurrentCommandsEachGetTheirOwnOutput() throws Exception {
        try (var pool = Executors.newFixedThreadPool(6)) {
            List<Future<CommandResult>> results = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                int n = i;
                results.add(pool.submit((Callable<CommandResult>) () -> transport.exec(
                        "echo out" + n + "; echo err" + n + " >&2; exit " + (n % 4), scratch(), TIMEOUT)));
            }
            for (int i = 0; i < results.size(); i++) {
                assertEquals(
                        new CommandResult(i % 4, "out" + i + "\n", "err" + i + "\n"),
                        results.get(i).get());
            }
        }
    }

    @Test
    void outputWithoutATrailingNewlineOrLikeTheDoneLineComesBackAsWritten() {
        assertEquals(new CommandResult(0, "a\n\nb", ""), transport.exec("printf 'a\\n\\nb'", scratch(), TIMEOUT));
        assertEquals(
                new CommandResult(0, "cairn-done-0 0\n", ""),
                transport.exec("echo cairn-done-0 0", scratch(), TIMEOUT));
    }
}
