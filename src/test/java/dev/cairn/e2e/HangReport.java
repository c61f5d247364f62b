package dev.cairn.e2e;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Prints the stack of every thread of the end-to-end tests' JVM when it has run for {@link #AFTER}, so that a
 * test that hangs says where in CI's log before failsafe's bound on the JVM ({@code forkedProcessTimeoutInSeconds},
 * ten minutes later) kills it. The suite takes about 20 minutes; nothing is printed when it ends in time.
 */
public final class HangReport implements LauncherSessionListener {

    /** How long the tests may run before their threads are printed: twice their time in CI. */
    static final Duration AFTER = Duration.ofMinutes(40);

    private ScheduledExecutorService timer;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "hang-report");
            thread.setDaemon(true);
            return thread;
        });
        timer.schedule(() -> print(System.err), AFTER.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void launcherSessionClosed(LauncherSession session) {
        timer.shutdownNow();
    }

    /** Every live thread with its whole stack, by name (a thread dump's lines are cut at eight frames). */
    static void print(PrintStream out) {
        StringBuilder report = new StringBuilder(
                "The end-to-end tests still run after " + AFTER.toMinutes() + " minutes; their threads:\n");
        Thread.getAllStackTraces().entrySet().stream()
                .sorted(Comparator.comparing(
                        (Map.Entry<Thread, StackTraceElement[]> e) -> e.getKey().getName()))
                .forEach(e -> {
                    Thread thread = e.getKey();
                    report.append('\n')
                            .append('"')
                            .append(thread.getName())
                            .append("\" ")
                            .append(thread.getState());
                    report.append(thread.isDaemon() ? " daemon\n" : "\n");
                    for (StackTraceElement frame : e.getValue()) {
                        report.append("    at ").append(frame).append('\n');
                    }
                });
        out.print(report);
        out.flush();
    }
}
