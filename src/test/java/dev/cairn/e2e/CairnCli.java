package dev.cairn.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The real {@code cairn} launcher (cli/target/cairn/bin/cairn) run as a process, as a person or a
 * script runs it: with a config directory of its own, against a server given by URL and token.
 * Standard output and error go to files under target/e2e-logs so a failure can be read afterwards.
 */
public final class CairnCli {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final AtomicInteger RUNS = new AtomicInteger();

    /** What one run of {@code cairn} did. */
    public record Run(List<String> args, int exit, String out, String err) {

        public JsonNode json() {
            return JSON.readTree(out);
        }

        @Override
        public String toString() {
            return "cairn " + String.join(" ", args) + " -> exit " + exit + "\n--- stdout ---\n" + out
                    + "--- stderr ---\n" + err;
        }
    }

    private final Path home;
    private final Map<String, String> env = new HashMap<>();
    private Path launcher;

    /** A cairn with its own config directory under {@code home}, talking to nothing yet. */
    public CairnCli(Path home) {
        this.home = home;
        env.put("CAIRN_CONFIG_DIR", home.resolve("config").toString());
        env.put("CAIRN_DATA_DIR", home.resolve("no-local-server").toString());
        env.put("XDG_CACHE_HOME", home.resolve("cache").toString());
        env.put("NO_COLOR", "1");
        env.put("COLUMNS", "200");
        String java = System.getenv("CAIRN_TEST_JAVA");
        env.put(
                "JAVA_HOME",
                java != null && !java.isBlank()
                        ? Path.of(java).getParent().getParent().toString()
                        : System.getProperty("java.home"));
    }

    /** A cairn that talks to {@code server} with {@code token} (through CAIRN_URL and CAIRN_TOKEN). */
    public static CairnCli against(Path home, URI server, String token) {
        return new CairnCli(home).env("CAIRN_URL", server.toString()).env("CAIRN_TOKEN", token);
    }

    public CairnCli env(String name, String value) {
        if (value == null) {
            env.remove(name);
        } else {
            env.put(name, value);
        }
        return this;
    }

    public Path home() {
        return home;
    }

    /** Runs this launcher instead of the build's (one unpacked from the distribution archive). */
    public CairnCli launcher(Path launcher) {
        this.launcher = launcher;
        return this;
    }

    /** The launcher the build made; the failsafe configuration names its directory. */
    public static Path launcher() {
        Path launcher = Path.of(System.getProperty("cairn.cli.home", "../../cli/target/cairn"))
                .resolve("bin/cairn")
                .toAbsolutePath()
                .normalize();
        if (!Files.isRegularFile(launcher)) {
            throw new IllegalStateException(
                    "no cairn launcher at " + launcher + ": build it first (./mvnw -pl cli -am package -DskipTests)");
        }
        return launcher;
    }

    public Run run(String... args) {
        return run(Duration.ofMinutes(2), null, args);
    }

    /** Runs {@code cairn args}, with {@code stdin} as its input (or none), within {@code timeout}. */
    public Run run(Duration timeout, String stdin, String... args) {
        int n = RUNS.incrementAndGet();
        Path logs =
                Path.of(System.getProperty("cairn.e2e.logs", "target/e2e-logs")).toAbsolutePath();
        try {
            Files.createDirectories(logs);
            Path out = logs.resolve("cli-" + n + ".out");
            Path err = logs.resolve("cli-" + n + ".err");
            List<String> command = new ArrayList<>();
            command.add((launcher != null ? launcher : launcher()).toString());
            command.addAll(List.of(args));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(home.toFile())
                    .redirectOutput(out.toFile())
                    .redirectError(err.toFile());
            builder.environment().putAll(env);
            if (stdin == null) {
                builder.redirectInput(
                        ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
            }
            Files.createDirectories(home);
            Process process = builder.start();
            if (stdin != null) {
                try (OutputStream in = process.getOutputStream()) {
                    in.write(stdin.getBytes(UTF_8));
                }
            }
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("cairn " + String.join(" ", args) + " did not end within " + timeout);
            }
            return new Run(
                    List.of(args), process.exitValue(), Files.readString(out, UTF_8), Files.readString(err, UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
