package dev.cairn.e2e.hosts;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A process on a {@link Host}, started as {@code ip netns exec NAMESPACE COMMAND} (which execs the
 * command: the pid is the command's own). Every line it prints is kept with the time it came, in
 * memory and in {@code <host dir>/<name>.log}, so a test can wait for a line and tell when it was
 * printed.
 */
public final class HostProcess implements AutoCloseable {

    /** A line the process printed, and when it came (milliseconds since the epoch). */
    public record Line(long millis, String text) {}

    private final Host host;
    private final String name;
    private final Process process;
    private final Path log;
    private final List<Line> lines = new CopyOnWriteArrayList<>();
    private final Thread pump;

    private HostProcess(Host host, String name, Process process, Path log) {
        this.host = host;
        this.name = name;
        this.process = process;
        this.log = log;
        this.pump = Thread.ofPlatform()
                .daemon()
                .name("host-out-" + host.name() + "-" + name)
                .start(this::pump);
    }

    static HostProcess start(Host host, String name, List<String> command, Map<String, String> environment) {
        Path log = host.dir().resolve(name + ".log");
        ProcessBuilder builder =
                new ProcessBuilder(command).directory(host.dir().toFile()).redirectErrorStream(true);
        // the server and the tools read CAIRN_* variables: only what the caller says counts
        builder.environment().keySet().removeIf(k -> k.startsWith("CAIRN_") || k.startsWith("SPRING_"));
        builder.environment().putAll(environment);
        try {
            return new HostProcess(host, name, builder.start(), log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + String.join(" ", command), e);
        }
    }

    private void pump() {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), UTF_8));
                Writer out = Files.newBufferedWriter(log, UTF_8)) {
            for (String text; (text = in.readLine()) != null; ) {
                Line line = new Line(System.currentTimeMillis(), text);
                lines.add(line);
                out.write(line.millis() + " " + text + "\n");
                out.flush();
            }
        } catch (IOException e) {
            // the process is gone, or the folder with it
        }
    }

    public String name() {
        return name;
    }

    public Host host() {
        return host;
    }

    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public List<Line> lines() {
        return List.copyOf(lines);
    }

    /** The first line that matches, waiting for it; fails, quoting the end of the output, on exit or timeout. */
    public Line awaitLine(Predicate<String> match, String what, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        int seen = 0;
        while (true) {
            List<Line> now = lines;
            for (; seen < now.size(); seen++) {
                if (match.test(now.get(seen).text())) {
                    return now.get(seen);
                }
            }
            if (!process.isAlive() && !pump.isAlive()) {
                throw new AssertionError(this + " exited with " + process.exitValue() + " before " + what + tail());
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        this + " did not show " + what + " within " + timeout.toSeconds() + " s" + tail());
            }
            sleep(Duration.ofMillis(20));
        }
    }

    /** Sends {@code signal} ({@code INT}, {@code STOP}, …) to the process. */
    public void signal(String signal) {
        Ip.exec(List.of("kill", "-s", signal, Long.toString(process.pid())));
    }

    /** SIGKILL, and waits until the process is gone. */
    public void kill() {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
    }

    /**
     * SIGTERM, and waits up to {@code timeout}; returns the exit code. Sent with {@code kill}, not
     * {@link Process#destroy()}, which closes the pipe of the process's output: what it prints
     * while it stops would be lost, and a JVM writing its AOT cache at exit dies of it.
     */
    public int stop(Duration timeout) {
        signal("TERM");
        return awaitExit(timeout);
    }

    /** Waits for the end; returns the exit code. */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(this + " still runs after " + timeout.toSeconds() + " s" + tail());
            }
            pump.join(Duration.ofSeconds(5));
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** The last lines, for failure messages. */
    public String tail() {
        List<Line> all = lines();
        StringBuilder b = new StringBuilder("\n--- last lines of " + log + " ---");
        for (Line line : all.subList(Math.max(0, all.size() - 40), all.size())) {
            b.append('\n').append(line.text());
        }
        return b.toString();
    }

    public Path log() {
        return log;
    }

    /** Kills the process if it still runs. */
    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public String toString() {
        return name + " on " + host.name() + " (pid " + process.pid() + ")";
    }
}
