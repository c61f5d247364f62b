package dev.cairn.cli.local;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.client.Target;

/** Waiting for a server or worker JVM this command line started. */
public final class Readiness {

    private Readiness() {}

    /**
     * Waits until the server at {@code url} answers its readiness probe UP; fails, quoting the end of its
     * log, when the process ends first or {@code timeout} passes (and then stops it: nothing is left
     * half started).
     */
    public static void awaitServer(URI url, ProcessHandle process, LocalRun run, Duration timeout) {
        CairnClient client = new CairnClient(new Target(url, null, "the server just started"), Duration.ofSeconds(5));
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            ended(process, run);
            try {
                CairnClient.Answer answer = client.probe("/actuator/health/readiness");
                if (answer.status() == 200 && "UP".equals(JsonTrees.text(answer.body(), "status", ""))) {
                    return;
                }
            } catch (CliException notYet) {
                // not listening yet
            }
            timedOut(deadline, timeout, process, run);
            pause();
        }
    }

    /** Waits until a worker JVM's log says it started. */
    public static void awaitWorker(ProcessHandle process, LocalRun run, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!run.logContains("Started CairnApplication")) {
            ended(process, run);
            timedOut(deadline, timeout, process, run);
            pause();
        }
    }

    private static void ended(ProcessHandle process, LocalRun run) {
        if (!process.isAlive()) {
            run.forget();
            throw new CliException(
                    ExitCodes.FAILED,
                    "the " + run.name() + " stopped before it was ready; the end of " + run.log() + ":\n"
                            + String.join("\n", run.tail(20)),
                    null);
        }
    }

    private static void timedOut(long deadline, Duration timeout, ProcessHandle process, LocalRun run) {
        if (System.nanoTime() > deadline) {
            process.destroy();
            boolean stopped = LocalRun.awaitExit(process, Duration.ofSeconds(60));
            List<ProcessHandle> left = LocalRun.leftOf(process);
            if (stopped) {
                run.forget();
            }
            throw new CliException(
                    ExitCodes.FAILED,
                    "the " + run.name() + " was not ready within " + timeout.toSeconds() + " s, "
                            + (stopped ? "so it was stopped" : "and it is still stopping: " + pids(left))
                            + "; the end of " + run.log() + ":\n" + String.join("\n", run.tail(20)),
                    "give it longer with --wait");
        }
    }

    /** The pids of {@code processes}, for messages: "pid 12 (java), pid 14 (postgres)". */
    public static String pids(List<ProcessHandle> processes) {
        return String.join(
                ", ",
                processes.stream()
                        .map(p -> "pid " + p.pid()
                                + p.info()
                                        .command()
                                        .map(c -> " (" + c.substring(c.lastIndexOf('/') + 1) + ")")
                                        .orElse(""))
                        .toList());
    }

    private static void pause() {
        try {
            Thread.sleep(250);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException(ExitCodes.INTERRUPTED, "interrupted", null, e);
        }
    }
}
