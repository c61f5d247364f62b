package dev.cairn.jmh.objects;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Temporary folders for benchmark state, on the real filesystem of {@code java.io.tmpdir} (never tmpfs
 * on purpose: fsync must cost what it costs). To measure another disk, give the forks
 * {@code -jvmArgsAppend -Djava.io.tmpdir=/that/disk}.
 */
public final class BenchmarkDirs {

    private BenchmarkDirs() {}

    public static Path newDir(String prefix) throws IOException {
        return Files.createTempDirectory("cairn-jmh-" + prefix + "-");
    }

    /** Deletes a folder and everything in it; a missing folder is fine. */
    public static void delete(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
