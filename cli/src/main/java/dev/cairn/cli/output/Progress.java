package dev.cairn.cli.output;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * A progress bar on standard error for long work (maintain, backup, bulk kill, submit --wait): drawn
 * in place on a terminal at most ten times a second, silent anywhere else so logs stay clean. Ctrl-C
 * while it is drawn clears its line, and for work counted in steps says how far it got, so the prompt
 * comes back on a clean line that tells what was done.
 */
public final class Progress implements AutoCloseable {

    /** Back to the line's start and erase it. */
    static final String CLEAR_LINE = "\r\u001b[2K";

    private static final int BAR = 30;
    private static final long REDRAW_NANOS = 100_000_000L;
    private static final long TICK_MILLIS = 1_000L;

    private final PrintWriter err;
    private final boolean drawn;
    private volatile String label;
    private final boolean bytes;
    private final long started = System.nanoTime();
    /** Clears the bar when the JVM stops before {@link #close}: Ctrl-C. */
    private final Thread onInterrupt;
    /** Redraws the bar each second, so that its time moves while the work tells nothing (one long step). */
    private final Thread ticker;

    private volatile boolean closed;

    private volatile long total;
    private volatile long done;
    private long drawnAt;

    Progress(PrintWriter err, boolean drawn, String label, long total) {
        this(err, drawn, label, total, false);
    }

    /** @param bytes whether the steps are bytes (an upload, a download), shown as sizes */
    Progress(PrintWriter err, boolean drawn, String label, long total, boolean bytes) {
        this.err = err;
        this.drawn = drawn;
        this.label = label;
        this.total = total;
        this.bytes = bytes;
        this.onInterrupt = drawn ? new Thread(this::interrupted, "progress-interrupted") : null;
        if (drawn) {
            Runtime.getRuntime().addShutdownHook(onInterrupt);
        }
        draw(true);
        this.ticker =
                drawn ? Thread.ofPlatform().daemon().name("progress-ticker").start(this::tick) : null;
    }

    private void tick() {
        while (!closed) {
            try {
                Thread.sleep(TICK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            draw(true);
        }
    }

    public void total(long total) {
        this.total = total;
        draw(false);
    }

    public void advance(long steps) {
        done += steps;
        draw(false);
    }

    /** What the bar says it is doing, from now on. */
    public void label(String label) {
        this.label = label;
        draw(true);
    }

    public void set(long done) {
        this.done = done;
        draw(false);
    }

    /** Clears the bar's line, leaving the terminal as it was. */
    @Override
    public void close() {
        if (!drawn) {
            return;
        }
        synchronized (this) {
            closed = true;
        }
        ticker.interrupt();
        try {
            Runtime.getRuntime().removeShutdownHook(onInterrupt);
        } catch (IllegalStateException stopping) {
            return; // the JVM is stopping: the hook has the last word
        }
        err.print(CLEAR_LINE);
        err.flush();
    }

    private void interrupted() {
        synchronized (this) {
            closed = true; // no tick draws over what this prints
        }
        long steps = total;
        err.print(CLEAR_LINE);
        if (steps > 1) {
            err.println(label + ": interrupted after " + amount(done) + " of " + amount(steps));
        }
        err.flush();
    }

    private String amount(long n) {
        return bytes ? size(n) : Long.toString(n);
    }

    /** A size in bytes as people read it: {@code 512 B}, {@code 1.5 MiB}. */
    public static String size(long n) {
        if (n < 1024) {
            return n + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = n;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }

    private synchronized void draw(boolean force) {
        if (!drawn || closed) {
            return;
        }
        long now = System.nanoTime();
        if (!force && now - drawnAt < REDRAW_NANOS && done < total) {
            return;
        }
        drawnAt = now;
        long seconds = (now - started) / 1_000_000_000L;
        String bar;
        if (total > 0) {
            int filled = (int) Math.min(BAR, done * BAR / total);
            bar = "[" + "#".repeat(filled) + ".".repeat(BAR - filled) + "] " + amount(done) + "/" + amount(total);
        } else {
            bar = amount(done) + " so far";
        }
        err.print(CLEAR_LINE + label + " " + bar + " " + RelativeTime.span(seconds));
        err.flush();
    }
}
