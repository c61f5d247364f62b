package dev.cairn.e2e.hosts;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.cairn.storage.testing.TestDatabase;

/**
 * When the workers made progress: the steps committed over all processes ({@link Ledger#steps}),
 * read ten times a second on a thread of its own, and the times at which the count went up. A
 * failure's stall is the longest stretch with no step committed ({@link #longestGap}).
 */
final class Progress implements AutoCloseable {

    private static final Duration EVERY = Duration.ofMillis(100);

    private final TestDatabase db;
    private final List<Long> advances = new ArrayList<>();
    private final Thread watcher;
    private volatile boolean closed;

    private Progress(TestDatabase db) {
        this.db = db;
        this.watcher = Thread.ofPlatform().daemon().name("progress").start(this::watch);
    }

    /** Starts watching {@code db}'s steps. */
    static Progress watch(TestDatabase db) {
        return new Progress(db);
    }

    private void watch() {
        long last = -1;
        while (!closed) {
            long steps = Ledger.steps(db);
            if (steps > last) {
                synchronized (advances) {
                    advances.add(System.nanoTime());
                }
                last = steps;
            }
            HostProcess.sleep(EVERY);
        }
    }

    /** The last time the steps went up ({@link System#nanoTime()}). */
    long lastAdvance() {
        synchronized (advances) {
            return advances.isEmpty() ? 0 : advances.getLast();
        }
    }

    /** Waits until a step is committed after {@code since} (nanoTime); false if none within {@code timeout}. */
    boolean awaitAdvanceAfter(long since, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (lastAdvance() <= since) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            HostProcess.sleep(EVERY);
        }
        return true;
    }

    /**
     * The longest time with no step committed between {@code from} and {@code to} (nanoTime): from
     * {@code from} to the first advance after it, between two advances, or from the last advance to
     * {@code to}.
     */
    Duration longestGap(long from, long to) {
        long previous = from;
        long longest = 0;
        synchronized (advances) {
            for (long t : advances) {
                if (t > from && t <= to) {
                    longest = Math.max(longest, t - previous);
                    previous = t;
                }
            }
        }
        return Duration.ofNanos(Math.max(longest, to - previous));
    }

    @Override
    public void close() {
        closed = true;
        try {
            watcher.join(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
