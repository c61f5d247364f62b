package dev.cairn.engine.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * A {@link WorkerMain} in a JVM of its own, on a test class's database and virtual host,
 * with the test class path (so {@link TestProcesses} is its plugin): a real worker process
 * that a test can SIGTERM or kill -9. Its standard error (the worker's log) goes to
 * {@code target/worker-logs/<name>.log}; its standard output is kept in memory.
 */
public final class WorkerJvm implements AutoCloseable {

    /** Long: a worker on a machine busy with the other suites has needed over a minute to start. */
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);

    private final String name;
    private final Process process;
    private final Path log;
    private final List<String> out = new CopyOnWriteArrayList<>();

    private WorkerJvm(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
        Thread pump = new Thread(
                () -> {
                    try (BufferedReader r = new BufferedReader(
                            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = r.readLine()) != null; ) {
                            out.add(line);
                        }
                    } catch (IOException ignored) {
                        // the child is gone
                    }
                },
                "worker-jvm-out-" + name);
        pump.setDaemon(true);
        pump.start();
    }

    /** Starts a worker with {@code slots} slots and waits until it says it is ready. */
    public static WorkerJvm start(String name, TestDatabase db, TestBroker broker, int slots)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(java());
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("-Xmx256m");
        cmd.add("-XX:TieredStopAtLevel=1");
        cmd.add("-cp");
        cmd.add(classPath());
        cmd.add(WorkerMain.class.getName());
        cmd.addAll(List.of(
                "--db-url",
                db.jdbcUrl(),
                "--amqp-uri",
                EngineFixture.amqpUri(broker),
                "--prefix",
                "cairn",
                "--slots",
                Integer.toString(slots)));
        Path dir = Path.of("target", "worker-logs");
        Files.createDirectories(dir);
        Path log = dir.resolve(db.name() + "-" + name + ".log");
        Process p = new ProcessBuilder(cmd)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        WorkerJvm jvm = new WorkerJvm(name, p, log);
        try {
            jvm.awaitReady();
        } catch (RuntimeException | Error | InterruptedException e) {
            jvm.close();
            throw e;
        }
        return jvm;
    }

    private void awaitReady() throws InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (out.stream().noneMatch(l -> l.startsWith("cairn worker ready"))) {
            if (!process.isAlive()) {
                throw new IllegalStateException("worker " + name + " exited with " + process.exitValue()
                        + " before it was ready; its log: " + log.toAbsolutePath() + "\n" + tail());
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("worker " + name + " not ready after " + READY_TIMEOUT + "; its log: "
                        + log.toAbsolutePath() + ", its threads: " + threadDump() + "\n" + tail());
            }
            Thread.sleep(20);
        }
    }

    /** The worker's threads, as jcmd prints them, in a file beside its log; the file's path, or why there is none. */
    private String threadDump() throws InterruptedException {
        Path dump = log.resolveSibling(log.getFileName().toString().replace(".log", ".threads.txt"));
        Path jcmd = Path.of(java()).resolveSibling("jcmd");
        try {
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
                    .redirectErrorStream(true)
                    .redirectOutput(dump.toFile())
                    .start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "(jcmd did not answer within 30 s; " + dump.toAbsolutePath() + ")";
            }
            return dump.toAbsolutePath().toString();
        } catch (IOException e) {
            return "(none: " + jcmd + " could not run: " + e.getMessage() + ")";
        }
    }

    private static String java() {
        String configured = System.getenv("CAIRN_TEST_JAVA");
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        return ProcessHandle.current()
                .info()
                .command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    private static String classPath() {
        // failsafe runs tests from a manifest-only jar; it gives the real class path here
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    public String name() {
        return name;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The last lines of the worker's log, for failure messages. */
    public String tail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e.getMessage() + ")";
        }
    }

    /** Lines of the worker's log that contain {@code text}. */
    public long logLines(String text) {
        try (var lines = Files.lines(log, StandardCharsets.UTF_8)) {
            return lines.filter(l -> l.contains(text)).count();
        } catch (IOException | UncheckedIOException e) {
            return -1;
        }
    }

    public Path log() {
        return log;
    }

    /** SIGKILL: no shutdown hook runs, nothing is acknowledged or handed back, like a crash. */
    public void kill9() throws InterruptedException {
        process.destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("worker " + name + " survived SIGKILL for 30 s");
        }
    }

    /** SIGTERM, then waits for the graceful stop; returns the exit code. */
    public int stop(Duration timeout) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("worker " + name + " did not stop within " + timeout + " of SIGTERM");
        }
        return process.exitValue();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
