package dev.cairn.engine.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Who ends the kept local shells: the pool that kept them, or the transport that kept its own. */
class TransportPoolTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration KEEP_ALIVE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    /** The shell that ran the command (a command runs in a subshell, where $$ is still the shell's pid). */
    private ProcessHandle shellOf(Transport t) {
        return ProcessHandle.of(Long.parseLong(
                        t.exec("echo $$", dir.toString(), TIMEOUT).stdout().strip()))
                .orElseThrow();
    }

    /** The folder the shell keeps its commands' output in. */
    private Path folderOf(Transport t) {
        return Path.of(
                t.exec("echo \"$cairn_dir\"", dir.toString(), TIMEOUT).stdout().strip());
    }

    @Test
    void localTransportsOfAPoolShareItsShellsWhichEndWhenThePoolCloses() {
        TransportPool pool = new TransportPool();
        ProcessHandle shell;
        Path folder;
        try (Transport first = pool.open(new TransportSpec.Local(), KEEP_ALIVE)) {
            shell = shellOf(first);
            folder = folderOf(first);
        }
        assertTrue(shell.isAlive(), "closing a transport of the pool keeps its shell");
        assertTrue(Files.isDirectory(folder), folder.toString());
        Transport second = pool.open(new TransportSpec.Local(), KEEP_ALIVE);
        assertEquals(shell.pid(), shellOf(second).pid(), "the next transport runs on the kept shell");

        pool.close();
        assertFalse(shell.isAlive(), "the pool's shell ended with it");
        assertFalse(Files.exists(folder), "and its folder is gone");
        var e = assertThrows(TransportException.class, () -> second.exec("true", dir.toString(), TIMEOUT));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        e = assertThrows(TransportException.class, () -> pool.open(new TransportSpec.Local(), KEEP_ALIVE));
        assertTrue(e.getMessage().contains("transport pool is closed"), e.getMessage());
        pool.close(); // closing again is harmless
    }

    @Test
    void aLocalTransportMadeOnItsOwnEndsItsShellWhenClosed() {
        Transport own = new LocalTransport();
        ProcessHandle shell = shellOf(own);
        Path folder = folderOf(own);
        own.close();
        assertFalse(shell.isAlive(), "its shell ended with it");
        assertFalse(Files.exists(folder), "and its folder is gone");
        var e = assertThrows(TransportException.class, () -> own.exec("true", dir.toString(), TIMEOUT));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        own.close(); // closing again is harmless
    }

    @Test
    void aShellBusyWhenThePoolClosesEndsWhenItsCommandDoes() throws Exception {
        TransportPool pool = new TransportPool();
        Transport t = pool.open(new TransportSpec.Local(), KEEP_ALIVE);
        ProcessHandle shell = shellOf(t);
        Thread busy = Thread.ofPlatform().start(() -> t.exec("sleep 0.5", dir.toString(), TIMEOUT));
        Thread.sleep(100);
        pool.close();
        busy.join();
        assertFalse(shell.isAlive(), "the busy shell ended too");
    }
}
