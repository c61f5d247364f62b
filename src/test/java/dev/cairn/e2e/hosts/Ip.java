package dev.cairn.e2e.hosts;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs {@code ip} of iproute2 (as root) and the few other commands the hosts are made with. */
final class Ip {

    /**
     * Longest a command may run. A bound against a hang, not a measure: under load, {@code rabbitmqctl}
     * alone has taken a minute.
     */
    private static final Duration BOUND = Duration.ofMinutes(5);

    private Ip() {}

    /** {@code ip ARGS}; fails with its output when it exits non-zero. */
    static String run(String... args) {
        List<String> command = new ArrayList<>();
        command.add("ip");
        command.addAll(Arrays.asList(args));
        return exec(command);
    }

    /** {@code ip ARGS}, whatever comes of it (for clean-up: the thing may be gone already). */
    static void quietly(String... args) {
        try {
            run(args);
        } catch (IllegalStateException e) {
            // gone already
        }
    }

    /** The names of the network namespaces {@code ip netns} knows. */
    static List<String> namespaces() {
        return run("netns", "list")
                .lines()
                .map(l -> l.split(" ", 2)[0])
                .filter(l -> !l.isBlank())
                .toList();
    }

    /** The names of this namespace's links (a veth's name without its {@code @peer} part). */
    static List<String> links() {
        return run("-o", "link", "show")
                .lines()
                .map(l -> l.split(": ", 3))
                .filter(p -> p.length > 1)
                .map(p -> p[1].split("@", 2)[0])
                .toList();
    }

    /** The processes whose network namespace is {@code namespace}. */
    static List<Long> pids(String namespace) {
        try {
            return run("netns", "pids", namespace)
                    .lines()
                    .filter(l -> !l.isBlank())
                    .map(l -> Long.parseLong(l.strip()))
                    .toList();
        } catch (IllegalStateException gone) {
            return List.of();
        }
    }

    /**
     * Runs {@code command} to its end; fails, with what it printed, when it exits non-zero or runs
     * past {@link #BOUND} (then it is killed).
     */
    static String exec(List<String> command) {
        String line = String.join(" ", command);
        try {
            // from /: tools run as other users (initdb as postgres) may not enter the tests' folder
            Process p = new ProcessBuilder(command)
                    .directory(new File("/"))
                    .redirectErrorStream(true)
                    .start();
            // read beside the wait, so that the wait's bound holds while the command prints nothing
            FutureTask<String> output =
                    new FutureTask<>(() -> new String(p.getInputStream().readAllBytes(), UTF_8));
            Thread.ofVirtual().name("ip-exec-output").start(output);
            if (!p.waitFor(BOUND.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(line + " did not end within " + BOUND.toMinutes() + " min: killed");
            }
            String out = output(output, line);
            if (p.exitValue() != 0) {
                throw new IllegalStateException(
                        line + " exited with " + p.exitValue() + ": " + out.strip() + hint(command, out));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot run " + command.getFirst() + " (the hosts need iproute2: source .ci/hosts)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** What the command printed; its output ends with it, unless a process it left behind holds it open. */
    private static String output(FutureTask<String> output, String line) throws InterruptedException {
        try {
            return output.get(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException(line + " ended, but a process it started still holds its output open");
        } catch (ExecutionException e) {
            throw new UncheckedIOException("cannot read the output of " + line, new IOException(e.getCause()));
        }
    }

    private static String hint(List<String> command, String out) {
        if (out.contains("Operation not permitted") || out.contains("Permission denied")) {
            return " (network namespaces need root: run the tests as root, as CI does)";
        }
        return "";
    }
}
