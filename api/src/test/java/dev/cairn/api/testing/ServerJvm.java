package dev.cairn.api.testing;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * The server in a JVM of its own, started as a user starts it ({@code CairnApplication} with
 * {@code --cairn.*} arguments) with JVM options of the test's choosing, such as a small heap, on a
 * test class's database and virtual host. Its output goes to {@code target/server-logs/<db>.log}.
 */
public final class ServerJvm implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

    private final Process process;
    private final int port;
    private final Path dataDir;
    private final Path log;

    private ServerJvm(Process process, int port, Path dataDir, Path log) {
        this.process = process;
        this.port = port;
        this.dataDir = dataDir;
        this.log = log;
    }

    /** Starts the API role (no worker) and waits until it answers. */
    public static ServerJvm start(
            TestDatabase db, TestBroker broker, Path dataDir, List<String> jvmOptions, List<String> settings)
            throws IOException, InterruptedException {
        int port = freePort();
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classPath());
        cmd.add("dev.cairn.api.CairnApplication");
        cmd.add("--server.port=" + port);
        cmd.add("--cairn.roles=api");
        cmd.add("--cairn.database.url=" + db.jdbcUrl());
        cmd.add("--cairn.database.pool-size=4");
        cmd.add("--cairn.broker.uri=" + Amqp.uri(broker));
        cmd.add("--cairn.data-dir=" + dataDir);
        cmd.addAll(settings);
        Path dir = Path.of("target", "server-logs");
        Files.createDirectories(dir);
        Path log = dir.resolve(db.name() + ".log");
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        ServerJvm server = new ServerJvm(p, port, dataDir, log);
        try {
            server.awaitReady();
        } catch (RuntimeException | Error | InterruptedException e) {
            server.close();
            throw e;
        }
        return server;
    }

    private void awaitReady() throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        Api open = new Api("http://localhost:" + port, null);
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        "the server exited with " + process.exitValue() + " before it answered; its log: " + tail());
            }
            int status;
            try {
                status = open.get("/api/v1/server").status();
            } catch (IllegalStateException notYet) {
                status = 0; // not listening yet
            }
            if (status == 200) {
                // written before the web server takes requests: a script that waits for the answer finds it
                if (!Files.exists(dataDir.resolve("admin-token"))) {
                    throw new IllegalStateException(
                            "the server answered before its admin token was in " + dataDir + ": " + tail());
                }
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the server did not answer within " + READY_TIMEOUT + ": " + tail());
            }
            Thread.sleep(200);
        }
    }

    /** Requests as the admin token the server wrote at its first start. */
    public Api admin() throws IOException {
        return new Api(
                "http://localhost:" + port,
                Files.readString(dataDir.resolve("admin-token")).strip());
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The last lines of the server's output. */
    public String tail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return log.toAbsolutePath() + "\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    /** SIGTERM, then a kill if it does not stop within 30 s. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static String java() {
        String configured = System.getenv("CAIRN_TEST_JAVA");
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static String classPath() {
        // failsafe runs tests from a manifest-only jar; it gives the real class path here
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }
}
