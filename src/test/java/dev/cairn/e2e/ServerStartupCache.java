package dev.cairn.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The server's start-up cache, the way {@code ./cairn up} runs the server: the jar extracted beside itself
 * ({@code api/target/cairn-server/}) with the JDK's AOT cache, recorded once a build by {@code api/aot-cache.sh}
 * (a start and a stop, about 40 s). A server started from it is ready after about 5 s of processor time where
 * the plain jar takes 20 s, and the suite starts a few dozen. The tests that start servers through {@code cairn},
 * which runs the same script, call {@link #record()} first, so that no two recordings overlap.
 */
public final class ServerStartupCache {

    private static ServerStartupCache recorded;

    private final Path jar;
    private final Path cache;

    private ServerStartupCache(Path jar, Path cache) {
        this.jar = jar;
        this.cache = cache;
    }

    /** The cache of the build's server jar, recorded now unless it is newer than the jar. */
    public static synchronized ServerStartupCache record() {
        if (recorded == null) {
            Path serverJar = CairnServerProcess.serverJar();
            Path dir = serverJar.resolveSibling("cairn-server");
            run(serverJar.getParent().getParent().resolve("aot-cache.sh"));
            if (!Files.isRegularFile(dir.resolve("cairn.aot"))) {
                throw new AssertionError("api/aot-cache.sh wrote no " + dir.resolve("cairn.aot"));
            }
            recorded = new ServerStartupCache(dir.resolve("cairn-server.jar"), dir.resolve("cairn.aot"));
        }
        return recorded;
    }

    /** The extracted jar the cache was recorded with. */
    public Path jar() {
        return jar;
    }

    /** The JVM options that start from the cache. */
    public List<String> jvmOptions() {
        return startingFrom(cache);
    }

    /** The JVM options that start from the AOT cache {@code cache}, wherever it was recorded. */
    public static List<String> startingFrom(Path cache) {
        // -Xlog: the JDK warns about each stub it does not take from the cache; only errors matter
        return List.of("-XX:AOTCache=" + cache, "-Xlog:aot*=error", "-Xlog:cds*=error");
    }

    private static void run(Path script) {
        Path log =
                Path.of(System.getProperty("cairn.e2e.logs", "target/e2e-logs")).resolve("aot-cache.log");
        ProcessBuilder builder = new ProcessBuilder(script.toString())
                .redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        builder.environment()
                .put(
                        "JAVA_HOME",
                        Path.of(CairnServerProcess.java())
                                .getParent()
                                .getParent()
                                .toString());
        try {
            Files.createDirectories(log.getParent());
            Process process = builder.redirectOutput(log.toFile()).start();
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError(script + " did not end within 5 minutes: see " + log);
            }
            if (process.exitValue() != 0) {
                throw new AssertionError(
                        script + " failed with exit status " + process.exitValue() + ":\n" + Files.readString(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + script, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
