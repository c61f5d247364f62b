package dev.cairn.engine.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * What every {@link Transport} does, run against each implementation by a subclass that
 * says how to open one and where it may write. Real files and real processes throughout.
 */
abstract class TransportContract {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** The transport under test, open. */
    protected abstract Transport transport();

    /** An empty directory on the transport's computer for this test, as an absolute path. */
    protected abstract String scratch();

    @TempDir
    Path local;

    private String at(String relative) {
        return scratch() + "/" + relative;
    }

    @Test
    void mkdirsCreatesNestedDirectoriesAndIsIdempotent() {
        transport().mkdirs(at("a/b/c"));
        transport().mkdirs(at("a/b/c"));
        transport().mkdirs(at("a/b"));
        assertTrue(transport().isDirectory(at("a")));
        assertTrue(transport().isDirectory(at("a/b/c")));
        assertEquals(List.of("b"), transport().list(at("a")));
    }

    @Test
    void mkdirsRefusesAFileInTheWay() {
        transport().write(at("f"), new byte[] {1});
        var e = assertThrows(TransportException.class, () -> transport().mkdirs(at("f/sub")));
        assertFalse(e.isTransient(), e.getMessage());
        assertTrue(e.getMessage().contains(at("f/sub")), e.getMessage());
    }

    @Test
    void writeThenReadRoundTripsBinaryAndEmptyContent() {
        byte[] everyByte = new byte[256];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = (byte) i;
        }
        byte[] large = new byte[3 * 1024 * 1024 + 17];
        new Random(7).nextBytes(large);

        transport().write(at("every-byte"), everyByte);
        transport().write(at("large.bin"), large);
        transport().write(at("empty"), new byte[0]);

        assertArrayEquals(everyByte, transport().read(at("every-byte")));
        assertArrayEquals(large, transport().read(at("large.bin")));
        assertArrayEquals(new byte[0], transport().read(at("empty")));
    }

    @Test
    void writeReplacesAFileAndCreatesNoParents() {
        transport().write(at("f"), "a longer first version".getBytes(StandardCharsets.UTF_8));
        transport().write(at("f"), "short".getBytes(StandardCharsets.UTF_8));
        assertEquals("short", new String(transport().read(at("f")), StandardCharsets.UTF_8));

        var e = assertThrows(TransportException.class, () -> transport().write(at("missing/f"), new byte[] {1}));
        assertFalse(e.isTransient(), e.getMessage());
        assertFalse(transport().exists(at("missing")));
    }

    @Test
    void putThenGetRoundTripsATreeWithSubfoldersAndModes() throws IOException {
        Path tree = Files.createDirectories(local.resolve("tree"));
        Files.writeString(tree.resolve("top.txt"), "top\n");
        Path script = Files.writeString(
                Files.createDirectories(tree.resolve("bin")).resolve("run.sh"), "#!/bin/sh\necho ran\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-x---"));
        byte[] binary = new byte[200_000];
        new Random(11).nextBytes(binary);
        Files.write(Files.createDirectories(tree.resolve("sub/deeper")).resolve("data.bin"), binary);
        Files.write(tree.resolve("sub/empty.dat"), new byte[0]);
        Files.createDirectories(tree.resolve("nothing-inside"));
        Path secret = Files.writeString(tree.resolve("secret"), "s");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));

        transport().put(tree, at("remote"));
        transport().put(tree, at("remote")); // again: merges into what is there

        assertEquals(
                List.of("bin", "nothing-inside", "secret", "sub", "top.txt"),
                transport().list(at("remote")));
        assertEquals(List.of("deeper", "empty.dat"), transport().list(at("remote/sub")));
        assertArrayEquals(binary, transport().read(at("remote/sub/deeper/data.bin")));
        assertEquals(
                "ran\n", transport().exec("./bin/run.sh", at("remote"), TIMEOUT).stdout(), "stays executable");

        Path back = local.resolve("back");
        transport().get(at("remote"), back);
        assertEquals("top\n", Files.readString(back.resolve("top.txt")));
        assertArrayEquals(binary, Files.readAllBytes(back.resolve("sub/deeper/data.bin")));
        assertEquals(0, Files.size(back.resolve("sub/empty.dat")));
        assertTrue(Files.isDirectory(back.resolve("nothing-inside")));
        assertEquals(
                "rwxr-x---", PosixFilePermissions.toString(Files.getPosixFilePermissions(back.resolve("bin/run.sh"))));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(back.resolve("secret"))));
    }

    @Test
    void putAndGetCopyASingleFile() throws IOException {
        Path file = Files.writeString(local.resolve("one.txt"), "one");
        transport().put(file, at("copy.txt"));
        transport().get(at("copy.txt"), local.resolve("back.txt"));
        assertEquals("one", Files.readString(local.resolve("back.txt")));

        var e = assertThrows(TransportException.class, () -> transport().put(file, at("missing/copy.txt")));
        assertFalse(e.isTransient(), e.getMessage());
        assertFalse(transport().exists(at("missing")), "no parents are created");
    }

    @Test
    void getOfAMissingPathFailsNotTransient() {
        var e = assertThrows(TransportException.class, () -> transport().get(at("nope"), local.resolve("x")));
        assertFalse(e.isTransient(), e.getMessage());
        assertTrue(e.getMessage().contains(at("nope")), e.getMessage());
    }

    @Test
    void existsIsDirectoryAndListSortedByName() {
        for (String name : List.of("b", "a", "C", "a2")) {
            transport().write(at(name), new byte[0]);
        }
        transport().mkdirs(at("d"));

        assertEquals(List.of("C", "a", "a2", "b", "d"), transport().list(scratch()));
        assertTrue(transport().exists(at("a")));
        assertFalse(transport().isDirectory(at("a")));
        assertTrue(transport().exists(at("d")));
        assertTrue(transport().isDirectory(at("d")));
        assertFalse(transport().exists(at("missing")));
        assertFalse(transport().isDirectory(at("missing")));
        assertEquals(List.of(), transport().list(at("d")));
    }

    @Test
    void listOfAMissingDirectoryFailsNotTransient() {
        var e = assertThrows(TransportException.class, () -> transport().list(at("missing")));
        assertFalse(e.isTransient(), e.getMessage());
        assertTrue(e.getMessage().contains(at("missing")), e.getMessage());
    }

    @Test
    void removeDeletesAFileATreeAndNothingForAMissingPath() {
        transport().write(at("file"), new byte[] {1});
        transport().mkdirs(at("tree/a/b"));
        transport().write(at("tree/a/b/f"), new byte[] {2});
        transport().write(at("tree/g"), new byte[] {3});

        transport().remove(at("file"));
        transport().remove(at("tree"));
        transport().remove(at("never-was"));

        assertEquals(List.of(), transport().list(scratch()));
    }

    @Test
    void removeDeletesALinkNotWhatItPointsTo() {
        transport().mkdirs(at("kept"));
        transport().write(at("kept/f"), new byte[] {1});
        assertTrue(transport().exec("ln -s kept link", scratch(), TIMEOUT).ok());

        transport().remove(at("link"));

        assertEquals(List.of("kept"), transport().list(scratch()));
        assertEquals(List.of("f"), transport().list(at("kept")));
    }

    @Test
    void pathsMustBeAbsoluteAndTheRootIsNeverRemoved() {
        assertThrows(InvalidInputException.class, () -> transport().read("relative/path"));
        assertThrows(InvalidInputException.class, () -> transport().remove("/"));
        assertThrows(InvalidInputException.class, () -> transport().remove("//"));
    }

    @Test
    void execRunsInTheWorkdirWithExitCodeStdoutAndStderr() {
        transport().mkdirs(at("work"));
        CommandResult r = transport().exec("pwd; echo out; echo err >&2; exit 3", at("work"), TIMEOUT);
        assertEquals(new CommandResult(3, at("work") + "\nout\n", "err\n"), r);
        assertFalse(r.ok());
    }

    @Test
    void execQuotesAWorkdirWithSpacesAndQuotes() {
        String odd = at("it's a $dir");
        transport().mkdirs(odd);
        assertEquals(new CommandResult(0, odd + "\n", ""), transport().exec("pwd", odd, TIMEOUT));
    }

    @Test
    void execRunsMultiLineScriptsWithQuotes() {
        CommandResult r =
                transport().exec("x='it'\"'\"'s'\nprintf '%s\\n' \"$x\" \"$HOME\" | head -1", scratch(), TIMEOUT);
        assertEquals(new CommandResult(0, "it's\n", ""), r);
    }

    @Test
    void execWithoutWorkdirRunsInTheLoginDirectory() {
        CommandResult r = transport().exec("pwd", null, TIMEOUT);
        assertTrue(r.ok(), r.toString());
        assertTrue(r.stdout().startsWith("/"), r.stdout());
    }

    @Test
    void execGivesTheCommandNoInput() {
        assertEquals(new CommandResult(0, "", ""), transport().exec("cat", scratch(), TIMEOUT));
    }

    @Test
    void execReadsLargeOutputOnBothStreamsWithoutBlocking() {
        CommandResult r = transport()
                .exec(
                        "head -c 1000000 /dev/zero | tr '\\0' o; head -c 1000000 /dev/zero | tr '\\0' e >&2",
                        scratch(),
                        TIMEOUT);
        assertTrue(r.ok());
        assertEquals(1_000_000, r.stdout().length());
        assertEquals(1_000_000, r.stderr().length());
    }

    @Test
    void execInAMissingWorkdirFailsNotTransient() {
        var e = assertThrows(TransportException.class, () -> transport().exec("true", at("missing"), TIMEOUT));
        assertFalse(e.isTransient(), e.getMessage());
        assertTrue(e.getMessage().contains(at("missing")), e.getMessage());
    }

    @Test
    void execTimeoutIsTransientAndKillsTheCommandWithWhatItStarted() {
        long start = System.nanoTime();
        var e = assertThrows(
                TransportException.class,
                () -> transport()
                        .exec("(sleep 60; touch late) & echo $! > bg.pid; sleep 60", scratch(), Duration.ofSeconds(1)));
        assertTrue(e.isTransient(), e.getMessage());
        assertTrue(e.getMessage().contains("within PT1S"), e.getMessage());
        assertTrue(
                Duration.ofNanos(System.nanoTime() - start).compareTo(Duration.ofSeconds(20)) < 0,
                "returned soon after");

        String pid = new String(transport().read(at("bg.pid")), StandardCharsets.UTF_8).trim();
        // gone, or a zombie waiting for a parent that does not reap it
        String alive = "s=$(ps -o stat= -p " + pid + "); case \"$s\" in ''|Z*) exit 1;; *) exit 0;; esac";
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (transport().exec(alive, scratch(), TIMEOUT).ok()) {
            assertTrue(
                    System.nanoTime() < deadline, "the background job " + pid + " of the timed-out command still runs");
            sleep(Duration.ofMillis(100));
        }
    }

    @Test
    void readingAMissingFileFailsNotTransientNamingThePath() {
        var e = assertThrows(TransportException.class, () -> transport().read(at("no-such-file")));
        assertFalse(e.isTransient(), e.getMessage());
        assertTrue(e.getMessage().contains(at("no-such-file")), e.getMessage());
        assertTrue(e.getMessage().contains("no such file"), e.getMessage());
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
