package dev.cairn.cli.local;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.output.Output;

/**
 * Stopping the workers that run on this host for a data directory: {@code cairn worker stop}, and
 * {@code cairn server} and {@code cairn up} before or after their embedded services.
 */
public final class LocalWorkers {

    private LocalWorkers() {}

    /**
     * Stops workers of {@code dir}, the last started first: {@code count} of them, or all when null.
     * Each gets SIGTERM at once, then each is waited for until {@code timeout} has passed in all; the
     * ones that still run are returned. {@code cairn server stop} and {@code cairn up} stop the workers
     * of an embedded server with this, before its services go.
     */
    public static List<ProcessHandle> stop(Path dir, Integer count, Duration timeout, Output out) {
        List<Integer> running = new ArrayList<>(LocalRun.workers(dir));
        if (running.isEmpty()) {
            out.note("No workers run for " + dir + ".");
            return List.of();
        }
        Collections.reverse(running);
        List<Integer> chosen = count == null ? running : running.subList(0, Math.min(count, running.size()));
        List<Map.Entry<LocalRun, ProcessHandle>> stopping = new ArrayList<>();
        for (int n : chosen) {
            LocalRun run = LocalRun.worker(dir, n);
            run.process().ifPresent(p -> {
                p.destroy();
                stopping.add(Map.entry(run, p));
            });
        }
        List<ProcessHandle> left = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        for (Map.Entry<LocalRun, ProcessHandle> worker : stopping) {
            Duration rest = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
            if (LocalRun.awaitExit(worker.getValue(), rest)) {
                worker.getKey().forget();
                out.note("Stopped " + worker.getKey().name() + " (pid "
                        + worker.getValue().pid() + ").");
            } else {
                left.add(worker.getValue());
            }
        }
        return left;
    }

    /**
     * Stops every worker of {@code dir} before its embedded server's services go, saying why; returns the
     * ones that still run after {@code timeout}.
     */
    public static List<ProcessHandle> stopBeforeServer(Path dir, Duration timeout, Output out) {
        if (LocalRun.workers(dir).isEmpty()) {
            return List.of();
        }
        out.note("Stopping the workers first: they use the server's embedded database and broker.");
        return stop(dir, null, timeout, out);
    }

    /**
     * Stops the workers that an embedded server of {@code dir} left when it ended otherwise than by
     * {@code cairn server stop} (killed, crashed): they retry its database and broker for ever, and a
     * new start moves those to other ports with another password, so they would never work again.
     */
    public static void stopLeftOver(Path dir, Duration timeout, Output out) {
        int n = LocalRun.workers(dir).size();
        if (n == 0) {
            return;
        }
        out.note("Stopping " + n + " worker" + (n == 1 ? "" : "s") + " left by the last run: its embedded"
                + " database and broker are gone.");
        List<ProcessHandle> left = stop(dir, null, timeout, out);
        if (!left.isEmpty()) {
            throw notStopped(left, timeout);
        }
    }

    /** The refusal when workers did not stop within {@code timeout}. */
    public static CliException notStopped(List<ProcessHandle> left, Duration timeout) {
        return new CliException(
                ExitCodes.FAILED,
                left.size() + " worker" + (left.size() == 1 ? "" : "s") + " did not stop within " + timeout.toSeconds()
                        + " s: " + Readiness.pids(left),
                "wait longer (--timeout SECONDS): running steps may take cairn.worker.shutdown-grace");
    }
}
