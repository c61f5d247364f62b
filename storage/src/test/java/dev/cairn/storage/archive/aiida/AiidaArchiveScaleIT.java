package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 200,000 nodes (and as many links) go through {@link AiidaArchiveWriter} and back through
 * {@link AiidaArchiveReader} in JVMs with a 64 MiB heap: neither holds rows, entries or keys on the heap.
 * {@code -Dcairn.aiida.scale.nodes=1000000} runs the million (minutes: too long for every build).
 */
class AiidaArchiveScaleIT {

    static final int NODES = Integer.getInteger("cairn.aiida.scale.nodes", 200_000);
    static final String HEAP = "-Xmx64m";

    @TempDir
    Path dir;

    @Test
    void manyNodesWriteAndReadWithASmallHeap() throws IOException, InterruptedException {
        Path archive = dir.resolve("scale.aiida");
        long started = System.nanoTime();
        assertEquals("written " + NODES, run("write", archive.toString(), Integer.toString(NODES)));
        long written = System.nanoTime();
        String read = run("read", archive.toString());
        long done = System.nanoTime();
        String expected = "users=1/1 computers=0/0 authinfos=0/0 groups=0/0 nodes=" + NODES + "/" + NODES + " links="
                + (NODES - 1) + "/" + (NODES - 1) + " group_members=0/0 comments=0/0 logs=0/0 objects="
                + ScaleDriver.OBJECTS + "/" + ScaleDriver.OBJECTS;
        assertEquals(expected, read, "the header's counts and the rows and objects read");
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(archive), left.filter(p -> !p.equals(tmp())).toList(), "the writer's scratch is gone");
        }
        try (Stream<Path> left = Files.list(tmp())) {
            assertEquals(
                    List.of(),
                    left.filter(p -> p.getFileName().toString().startsWith("cairn-aiida-"))
                            .toList(),
                    "the reader's scratch is gone");
        }
        System.out.printf(
                "%d nodes with %s: written in %.1f s (%d MiB), read in %.1f s%n",
                NODES, HEAP, (written - started) / 1e9, Files.size(archive) >> 20, (done - written) / 1e9);
    }

    /** The child JVMs' temporary folder (sqlite-jdbc unpacks its library there too). */
    private Path tmp() {
        return dir.resolve("tmp");
    }

    /** Runs {@link ScaleDriver} in a JVM with a small heap; returns its last line of output. */
    private String run(String... args) throws IOException, InterruptedException {
        Files.createDirectories(tmp());
        List<String> command = new ArrayList<>(List.of(
                java(), "--enable-native-access=ALL-UNNAMED", HEAP, "-Djava.io.tmpdir=" + tmp(), "-cp", classPath()));
        command.add(ScaleDriver.class.getName());
        command.addAll(List.of(args));
        Path log = dir.resolve(args[0] + ".log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        assertTrue(process.waitFor(20, TimeUnit.MINUTES), args[0] + " ran past 20 minutes");
        List<String> output = Files.readAllLines(log, UTF_8);
        Files.delete(log);
        assertEquals(0, process.exitValue(), args[0] + " failed:\n" + String.join("\n", output));
        return output.getLast();
    }

    private static String java() {
        String configured = System.getenv("CAIRN_TEST_JAVA");
        return configured != null && !configured.isBlank()
                ? configured
                : Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String classPath() {
        // failsafe runs tests from a manifest-only jar; it gives the real class path here
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }
}
