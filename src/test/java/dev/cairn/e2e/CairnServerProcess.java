package dev.cairn.e2e;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * The server jar ({@code api/target/cairn-server.jar}) running as a process of its own, started from its
 * {@link ServerStartupCache} as {@code ./cairn up} starts it, for tests of the whole system: start it with
 * settings, wait until it is ready, call it with its admin token, stop it with a signal or kill it.
 * {@snippet :
 * try (CairnServerProcess server = CairnServerProcess.builder("api", dataDir)
 *         .database(db).broker(broker).setting("cairn.roles", "api")
 *         .start().awaitReady()) {
 *     HttpResponse<String> info = server.get("/api/v1/server");
 *     int exit = server.stop(CairnServerProcess.Signal.TERM);   // 143: stopped by SIGTERM
 * }
 * }
 * Without {@link Builder#database} and {@link Builder#broker} the server runs in the embedded mode
 * under its data directory. Its standard output and error go to a log file
 * ({@code target/e2e-logs/NAME-N.log}); failures quote its end. Closing kills what still runs, the
 * embedded PostgreSQL of its data directory included, so that no test leaves a process behind.
 */
public final class CairnServerProcess implements AutoCloseable {

    /** The signals a test stops the server with. */
    public enum Signal {
        /** Ctrl-C. */
        INT,
        /** What a service manager sends. */
        TERM,
        /** What nothing survives: no shutdown hook runs. */
        KILL
    }

    private static final AtomicInteger STARTS = new AtomicInteger();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private final String name;
    private final Path dataDir;
    private final Path log;
    private final int port;
    private final Process process;

    private CairnServerProcess(String name, Path dataDir, Path log, int port, Process process) {
        this.name = name;
        this.dataDir = dataDir;
        this.log = log;
        this.port = port;
        this.process = process;
    }

    /** A server named {@code name} (in its log file's name and in messages) with its data directory. */
    public static Builder builder(String name, Path dataDir) {
        return new Builder(name, dataDir);
    }

    /** Settings and options of a server to start. */
    public static final class Builder {

        private final String name;
        private final Path dataDir;
        private final Map<String, String> settings = new LinkedHashMap<>();
        private final List<String> launcher = new ArrayList<>();
        private final List<String> jvmOptions = new ArrayList<>(List.of(
                "-Xmx512m",
                // test JVMs live for seconds on a shared machine: C1 alone starts them sooner
                "-XX:TieredStopAtLevel=1"));

        private Builder(String name, Path dataDir) {
            this.name = name;
            this.dataDir = dataDir.toAbsolutePath().normalize();
        }

        /** A server setting, passed as {@code --key=value}: {@code setting("cairn.roles", "api")}. */
        public Builder setting(String key, String value) {
            settings.put(key, value);
            return this;
        }

        /** The server keeps its graph in this test database. */
        public Builder database(TestDatabase db) {
            return setting("cairn.database.url", db.jdbcUrl());
        }

        /** The server talks to the broker in this test virtual host. */
        public Builder broker(TestBroker broker) {
            return setting("cairn.broker.uri", amqpUri(broker));
        }

        /** {@code api}, {@code worker} or {@code api,worker}. */
        public Builder roles(String roles) {
            return setting("cairn.roles", roles);
        }

        /**
         * Runs the JVM through a command ({@code setpriv --reuid=65534 ...}): its words go before {@code java}
         * on the command line.
         */
        public Builder launcher(String... words) {
            launcher.addAll(List.of(words));
            return this;
        }

        /** An option for the server's JVM, before {@code -jar}. */
        public Builder jvmOption(String option) {
            jvmOptions.add(option);
            return this;
        }

        /** Starts the server; {@link #awaitReady()} waits until it serves. */
        public CairnServerProcess start() {
            ServerStartupCache cache = ServerStartupCache.record();
            int port = settings.containsKey("server.port") ? Integer.parseInt(settings.get("server.port")) : freePort();
            List<String> command = new ArrayList<>(resetSignals());
            command.addAll(launcher);
            command.add(java());
            command.addAll(cache.jvmOptions());
            command.addAll(jvmOptions);
            command.add("-jar");
            command.add(cache.jar().toString());
            command.add("--cairn.data-dir=" + dataDir);
            command.add("--server.port=" + port);
            settings.forEach((key, value) -> {
                if (!key.equals("server.port")) {
                    command.add("--" + key + "=" + value);
                }
            });
            try {
                Files.createDirectories(dataDir);
                Path logs = Path.of(System.getProperty("cairn.e2e.logs", "target/e2e-logs"));
                Files.createDirectories(logs);
                Path log = logs.resolve(name + "-" + STARTS.incrementAndGet() + ".log");
                ProcessBuilder builder =
                        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
                // the server reads CAIRN_* and SPRING_* variables: only what this builder says counts
                builder.environment().keySet().removeIf(k -> k.startsWith("CAIRN_") || k.startsWith("SPRING_"));
                Files.writeString(log, "");
                return new CairnServerProcess(name, dataDir, log, port, builder.start());
            } catch (IOException e) {
                throw new UncheckedIOException("starting " + String.join(" ", command), e);
            }
        }
    }

    /** Waits up to three minutes (a shared CI machine) until the server is ready. */
    public CairnServerProcess awaitReady() {
        return awaitReady(Duration.ofMinutes(3));
    }

    /**
     * Waits until {@code /actuator/health/readiness} answers UP; fails, quoting the log, if the
     * process ends first or {@code timeout} passes.
     */
    public CairnServerProcess awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new AssertionError(
                        name + " exited with " + process.exitValue() + " before it was ready" + logTail());
            }
            try {
                HttpResponse<String> r = send(request("/actuator/health/readiness", null)
                        .timeout(Duration.ofSeconds(5))
                        .build());
                if (r.statusCode() == 200 && r.body().contains("\"UP\"")) {
                    return this;
                }
            } catch (UncheckedIOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(name + " was not ready within " + timeout.toSeconds() + " s" + logTail());
            }
            sleep(Duration.ofMillis(100));
        }
    }

    /** The server's root, {@code http://127.0.0.1:PORT}. */
    public URI url() {
        return URI.create("http://127.0.0.1:" + port);
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public ProcessHandle handle() {
        return process.toHandle();
    }

    public Path dataDir() {
        return dataDir;
    }

    /** The admin token the server's first start wrote to {@code <data-dir>/admin-token}. */
    public String adminToken() {
        Path file = dataDir.resolve("admin-token");
        try {
            return Files.readString(file).strip();
        } catch (IOException e) {
            throw new AssertionError(name + " wrote no admin token to " + file + logTail(), e);
        }
    }

    /** A GET as the admin. */
    public HttpResponse<String> get(String path) {
        return get(path, adminToken());
    }

    /** A GET with {@code token} as bearer token (null: none). */
    public HttpResponse<String> get(String path, String token) {
        return send(request(path, token).GET().build());
    }

    /** A request to {@code path} on this server with {@code token} (null: none), to finish and send. */
    public HttpRequest.Builder request(String path, String token) {
        HttpRequest.Builder b = HttpRequest.newBuilder(url().resolve(path)).timeout(Duration.ofSeconds(60));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }

    /** Sends {@code request}; an unreachable server is an {@link UncheckedIOException}. */
    public HttpResponse<String> send(HttpRequest request) {
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(name + " did not answer " + request.uri() + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** What the server printed so far (its log, the demo's report). */
    public String output() {
        try {
            return Files.readString(log, UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until the output holds {@code text}; fails if the process ends first or the timeout passes. */
    public void awaitOutput(String text, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!output().contains(text)) {
            if (!process.isAlive()) {
                throw new AssertionError(name + " exited before it printed '" + text + "'" + logTail());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        name + " did not print '" + text + "' within " + timeout.toSeconds() + " s" + logTail());
            }
            sleep(Duration.ofMillis(100));
        }
    }

    public Path log() {
        return log;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Sends {@code signal} and waits up to two minutes for the server to end; returns its exit code. */
    public int stop(Signal signal) {
        return stop(signal, Duration.ofMinutes(2));
    }

    /** Sends {@code signal} and waits up to {@code timeout} for the server to end; returns its exit code. */
    public int stop(Signal signal, Duration timeout) {
        signal(signal);
        return awaitExit(timeout);
    }

    /** Sends {@code signal} to the server's JVM. */
    public void signal(Signal signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-s", signal.name(), Long.toString(process.pid()))
                    .redirectErrorStream(true)
                    .start();
            String out = new String(kill.getInputStream().readAllBytes(), UTF_8);
            if (kill.waitFor() != 0 && process.isAlive()) {
                throw new IllegalStateException("kill -s " + signal + " " + process.pid() + " failed: " + out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** {@code kill -9}: the JVM ends at once, no shutdown hook runs. */
    public void kill9() {
        signal(Signal.KILL);
        awaitExit(Duration.ofSeconds(30));
    }

    /** Waits for the server to end; returns its exit code, or fails, quoting its log. */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(
                        name + " still runs " + timeout.toSeconds() + " s after it was told to stop" + logTail());
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * The processes on this machine whose command line names this server's data directory: the
     * embedded PostgreSQL and its backends (pg_ctl starts them in a session of their own, so they
     * are no descendants of the JVM), bash jobs of its work directory.
     */
    public List<ProcessHandle> processesOfDataDir() {
        String dir = dataDir.toString();
        return ProcessHandle.allProcesses()
                .filter(p -> p.pid() != ProcessHandle.current().pid())
                .filter(p -> p.info()
                        .commandLine()
                        .map(c -> c.contains(dir + "/") || c.contains(dir + " ") || c.endsWith(dir))
                        .orElse(false))
                .toList();
    }

    /**
     * Kills the server if it still runs, then whatever still runs on its data directory (the
     * embedded PostgreSQL a killed server leaves behind).
     */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            awaitQuietly(process.toHandle());
        }
        for (ProcessHandle left : processesOfDataDir()) {
            left.destroy(); // SIGTERM: PostgreSQL shuts down cleanly
            if (!awaitQuietly(left)) {
                left.destroyForcibly();
            }
        }
    }

    /** The last lines of the log, for a failure's message. */
    public String logTail() {
        List<String> lines = output().lines().toList();
        return "\n--- last lines of " + log + " ---\n"
                + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    }

    private static boolean awaitQuietly(ProcessHandle p) {
        try {
            p.onExit().get(30, TimeUnit.SECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return !p.isAlive();
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The jar the build made; the failsafe configuration names it. */
    public static Path serverJar() {
        Path jar = Path.of(System.getProperty("cairn.server.jar", "../../api/target/cairn-server.jar"))
                .toAbsolutePath()
                .normalize();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(
                    "no server jar at " + jar + ": build it first (./mvnw -pl api -am package -DskipTests)");
        }
        return jar;
    }

    /** The JDK's java that runs the tests (failsafe sets CAIRN_TEST_JAVA), else this JVM's. */
    public static String java() {
        String java = System.getenv("CAIRN_TEST_JAVA");
        if (java != null && !java.isBlank()) {
            return java;
        }
        return ProcessHandle.current().info().command().orElse("java");
    }

    /**
     * A JVM whose parent ignores SIGINT (a background job of a script, some CI runners) inherits that
     * and would never see Ctrl-C: GNU env's {@code --default-signal} gives the server the default
     * handling of SIGINT and SIGTERM back. Elsewhere, nothing.
     */
    private static List<String> resetSignals() {
        try {
            Process probe = new ProcessBuilder("env", "--default-signal=INT,TERM", "true")
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (probe.waitFor() == 0) {
                return List.of("env", "--default-signal=INT,TERM");
            }
        } catch (IOException e) {
            // no env here: the signals stay as they are
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return List.of();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on loopback", e);
        }
    }

    /** The AMQP URI of a test's virtual host, with the broker's user. */
    public static String amqpUri(TestBroker broker) {
        URI amqp = broker.server().amqp();
        int port = amqp.getPort() < 0 ? 5672 : amqp.getPort();
        return amqp.getScheme() + "://" + (amqp.getRawUserInfo() == null ? "" : amqp.getRawUserInfo() + "@")
                + amqp.getHost() + ":" + port + "/" + URLEncoder.encode(broker.vhost(), UTF_8);
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ", " + url() + ")";
    }
}
