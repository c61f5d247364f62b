package dev.cairn.cli.output;

import java.io.PrintWriter;

/**
 * A progress bar on standard error for long work (maintain, backup, bulk kill, submit --wait): drawn
 * in place on a terminal at most ten times a second, silent anywhere else so logs stay clean.
 */
public final class Progress implements AutoCloseable {

    /** Back to the line's start and erase it. */
    static final String CLEAR_LINE = "\r\u001b[2K";

    private static final int BAR = 30;
    private static final long REDRAW_NANOS = 100_000_000L;

    private final PrintWriter err;
    private final boolean drawn;
    private final String label;
    private final long started = System.nanoTime();
    private long total;
    private long done;
    private long drawnAt;

    Progress(PrintWriter err, boolean drawn, String label, long total) {
        this.err = err;
        this.drawn = drawn;
        this.label = label;
        this.total = total;
        draw(true);
    }

    public void total(long total) {
        this.total = total;
        draw(false);
    }

    public void advance(long steps) {
        done += steps;
        draw(false);
    }

    public void set(long done) {
        this.done = done;
        draw(false);
    }

    /** Clears the bar's line, leaving the terminal as it was. */
    @Override
    public void close() {
        if (drawn) {
            err.print(CLEAR_LINE);
            err.flush();
        }
    }

    private void draw(boolean force) {
        if (!drawn) {
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
            bar = "[" + "#".repeat(filled) + ".".repeat(BAR - filled) + "] " + done + "/" + total;
        } else {
            bar = done + " so far";
        }
        err.print(CLEAR_LINE + label + " " + bar + " " + RelativeTime.span(seconds));
        err.flush();
    }
}
