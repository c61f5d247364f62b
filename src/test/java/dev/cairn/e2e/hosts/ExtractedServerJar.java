package dev.cairn.e2e.hosts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.cairn.e2e.CairnServerProcess;
import dev.cairn.e2e.ServerStartupCache;

/**
 * The server jar as the workers run it, the way {@code ./cairn up} runs the server: extracted
 * (Spring Boot's {@code -Djarmode=tools extract}) into a folder of the suite's, with the JDK's AOT
 * cache recorded by the first worker that starts from it, so that the workers the tests start and
 * restart by the dozen take a few seconds each. The extracted copy also keeps the workers from a
 * build that rewrites the jar meanwhile. Made again when the jar is newer than the copy.
 */
final class ExtractedServerJar {

    private final Path dir;

    private ExtractedServerJar(Path dir) {
        this.dir = dir;
    }

    /** The extracted server of the build's jar in {@code root}, extracted now if missing or older than the jar. */
    static synchronized ExtractedServerJar prepare(Path root) {
        Path source = CairnServerProcess.serverJar();
        Path dir = root.toAbsolutePath().normalize();
        Path jar = dir.resolve("cairn-server.jar");
        try {
            if (!Files.isRegularFile(jar)
                    || Files.getLastModifiedTime(jar).compareTo(Files.getLastModifiedTime(source)) < 0) {
                Network.deleteTree(dir);
                Files.createDirectories(dir.getParent());
                Ip.exec(List.of(
                        CairnServerProcess.java(),
                        "-Djarmode=tools",
                        "-jar",
                        source.toString(),
                        "extract",
                        "--destination",
                        dir.toString()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract " + source + " into " + dir, e);
        }
        return new ExtractedServerJar(dir);
    }

    Path jar() {
        return dir.resolve("cairn-server.jar");
    }

    private Path cache() {
        return dir.resolve("cairn.aot");
    }

    /** Whether the AOT cache is there to start from. */
    boolean hasCache() {
        return Files.isRegularFile(cache());
    }

    /** The JVM options that use the cache (none while it has not been recorded). */
    List<String> cacheOptions() {
        return hasCache() ? ServerStartupCache.startingFrom(cache()) : List.of();
    }

    /**
     * Records the cache with a worker on {@code host}: it starts with {@code settings}, is stopped
     * once it is ready, and the JVM writes the cache as it exits.
     */
    void record(Host host, WorkerNode.Settings settings) {
        List<String> options = new ArrayList<>(settings.jvmOptions());
        options.add("-XX:AOTCacheOutput=" + cache());
        WorkerNode recording = WorkerNode.start(host, "aot-recording", settings.withJvmOptions(options));
        try {
            recording.awaitReady();
            recording.process().stop(Duration.ofMinutes(3));
        } finally {
            recording.close();
            try {
                Files.copy(
                        recording.process().log(), dir.resolve("recording.log"), StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                // the log is for reading only
            }
        }
        if (!hasCache()) {
            throw new AssertionError(
                    "the worker wrote no AOT cache to " + cache() + ": see " + dir.resolve("recording.log"));
        }
    }
}
