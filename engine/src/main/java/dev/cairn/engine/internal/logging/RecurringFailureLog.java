package dev.cairn.engine.internal.logging;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * A failure that recurs each pass of a loop while something is away: logged the first time, then at
 * most once per interval with how many times it recurred since, and its end once, at INFO. Safe to
 * share between threads.
 */
public final class RecurringFailureLog {

    private final Logger log;
    private final Level level;
    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private long lastLogged;
    private long unsaid;
    private long failures;

    /** Says the failures to {@code log} at {@code level}, a repeated one at most once per {@code interval}. */
    public RecurringFailureLog(Logger log, Level level, Duration interval) {
        this(log, level, interval, System::nanoTime);
    }

    RecurringFailureLog(Logger log, Level level, Duration interval, LongSupplier nanoTime) {
        this.log = log;
        this.level = level;
        this.intervalNanos = interval.toNanos();
        this.nanoTime = nanoTime;
    }

    /** Another failure: said if it is the first since the last success or the interval has passed. */
    public synchronized void failed(String message) {
        long now = nanoTime.getAsLong();
        failures++;
        if (failures == 1 || now - lastLogged >= intervalNanos) {
            log.log(
                    level,
                    unsaid == 0 ? message : message + " (and " + unsaid + " time(s) more since it was last said)");
            lastLogged = now;
            unsaid = 0;
        } else {
            unsaid++;
        }
    }

    /** A success: if failures came before it, says that they ended and how many there were. */
    public synchronized void succeeded(String whatWorksAgain) {
        if (failures > 0) {
            log.log(Level.INFO, whatWorksAgain + " after " + failures + " failure(s)");
        }
        unsaid = 0;
        failures = 0;
    }
}
