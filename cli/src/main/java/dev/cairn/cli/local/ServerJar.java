package dev.cairn.cli.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;

/**
 * The server jar this command line launches (it never links the server), and the command that runs
 * it: this JDK's java, the server's start-up cache when there is one, the jar and its settings.
 * The jar is, in this order: {@code $CAIRN_SERVER_JAR}; {@code <cairn.home>/server/cairn-server.jar}
 * (a distribution); {@code <cairn.home>/../../../api/target/cairn-server.jar} (the source tree, where
 * the launcher is cli/target/cairn).
 */
public final class ServerJar {

    private final Path jar;

    private ServerJar(Path jar) {
        this.jar = jar;
    }

    /** The jar, or a failure naming where it was looked for. */
    public static ServerJar find(Map<String, String> env) {
        String explicit = env.get("CAIRN_SERVER_JAR");
        if (explicit != null && !explicit.isBlank()) {
            Path path = Path.of(explicit).toAbsolutePath().normalize();
            if (!Files.isRegularFile(path)) {
                throw new CliException(
                        ExitCodes.FAILED, "CAIRN_SERVER_JAR: no file " + path, "unset it to use the build's jar");
            }
            return new ServerJar(path);
        }
        List<Path> tried = new ArrayList<>();
        String home = System.getProperty("cairn.home");
        if (home != null) {
            Path base = Path.of(home).toAbsolutePath();
            for (Path candidate : List.of(
                    base.resolve("server/cairn-server.jar"),
                    base.resolve("../../../api/target/cairn-server.jar").normalize())) {
                if (Files.isRegularFile(candidate)) {
                    return new ServerJar(candidate);
                }
                tried.add(candidate);
            }
        }
        throw new CliException(
                ExitCodes.FAILED,
                "no server jar" + (tried.isEmpty() ? " (the launcher gave no cairn.home)" : ": none at " + tried),
                "build it (./mvnw -pl api -am package -DskipTests), or name one with CAIRN_SERVER_JAR");
    }

    public Path path() {
        return jar;
    }

    /**
     * The command that runs the server with {@code args}. With {@code cache} (and unless
     * {@code CAIRN_AOT=off}) it uses the start-up cache next to the jar ({@code cairn-server/cairn.aot},
     * JDK 25 and newer, or {@code cairn-server/cairn.jsa}), recording it first with the source tree's
     * {@code api/aot-cache.sh} when that script is there; {@code notes} get what the recording prints.
     * {@code CAIRN_SERVER_JAVA_OPTS} adds JVM options.
     */
    public List<String> command(Map<String, String> env, List<String> args, boolean cache, Consumer<String> notes) {
        Path javaHome = Path.of(System.getProperty("java.home"));
        List<String> command = new ArrayList<>();
        command.add(javaHome.resolve("bin/java").toString());
        Path runJar = jar;
        if (cache && !"off".equals(env.get("CAIRN_AOT"))) {
            Path script = jar.getParent().getParent().resolve("aot-cache.sh");
            boolean recorded = !Files.isExecutable(script) || record(script, javaHome, notes);
            Path dir = jar.getParent().resolve("cairn-server");
            if (recorded
                    && Files.isRegularFile(dir.resolve("cairn.aot"))
                    && Runtime.version().feature() >= 25) {
                // -Xlog: the JDK warns about each stub it does not take from the cache; only errors matter
                command.add("-XX:AOTCache=" + dir.resolve("cairn.aot"));
                command.add("-Xlog:aot*=error");
                runJar = dir.resolve("cairn-server.jar");
            } else if (recorded && Files.isRegularFile(dir.resolve("cairn.jsa"))) {
                command.add("-XX:SharedArchiveFile=" + dir.resolve("cairn.jsa"));
                runJar = dir.resolve("cairn-server.jar");
            }
        }
        String options = env.get("CAIRN_SERVER_JAVA_OPTS");
        if (options != null && !options.isBlank()) {
            command.addAll(List.of(options.strip().split("\\s+")));
        }
        command.add("-jar");
        command.add(runJar.toString());
        command.addAll(args);
        return command;
    }

    /** Runs api/aot-cache.sh (which does nothing when the cache is current); false when it failed. */
    private static boolean record(Path script, Path javaHome, Consumer<String> notes) {
        ProcessBuilder builder = new ProcessBuilder(script.toString()).redirectErrorStream(true);
        builder.environment().put("JAVA_HOME", javaHome.toString());
        builder.redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        try {
            Process process = builder.start();
            try (BufferedReader lines =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    notes.accept(line);
                }
            }
            if (process.waitFor() != 0) {
                notes.accept("starting without a start-up cache");
                return false;
            }
            return true;
        } catch (IOException e) {
            notes.accept("starting without a start-up cache: " + e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCodes.INTERRUPTED, "interrupted", null, e);
        }
    }
}
