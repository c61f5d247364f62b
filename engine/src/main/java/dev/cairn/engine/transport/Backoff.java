package dev.cairn.engine.transport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * Tries an operation again after failures that may go away, waiting longer each time:
 * exponential backoff with full jitter. Retry {@code n} (from 0) waits a uniformly random time
 * between zero and {@code min(max, initial * factor^n)}; the randomness keeps many workers that
 * lost the same cluster login node from all reconnecting in the same instant (see the AWS
 * architecture blog, "Exponential Backoff And Jitter").
 *
 * @param initial  the cap of the first wait
 * @param factor   how much the cap grows per retry (at least 1)
 * @param max      the largest cap
 * @param attempts how many times the operation is tried in all (at least 1)
 * @param sleeper  how to wait; tests pass one that records instead of sleeping
 * @param jitter   uniform values in [0, 1); tests pass fixed ones
 */
public record Backoff(
        Duration initial, double factor, Duration max, int attempts, Sleeper sleeper, DoubleSupplier jitter) {

    /** Waits; {@link Thread#sleep(Duration)} in production. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    public Backoff {
        Objects.requireNonNull(sleeper, "sleeper");
        Objects.requireNonNull(jitter, "jitter");
        if (initial == null || initial.isNegative() || initial.isZero()) {
            throw new InvalidInputException("the initial backoff must be positive, not " + initial);
        }
        if (max == null || max.compareTo(initial) < 0) {
            throw new InvalidInputException(
                    "the largest backoff (" + max + ") must be at least the initial one (" + initial + ")");
        }
        if (!(factor >= 1)) {
            throw new InvalidInputException("the backoff factor must be at least 1, not " + factor);
        }
        if (attempts < 1) {
            throw new InvalidInputException("a backoff needs at least one attempt, not " + attempts);
        }
    }

    /** Real sleeping and randomness. */
    public Backoff(Duration initial, double factor, Duration max, int attempts) {
        this(
                initial,
                factor,
                max,
                attempts,
                Thread::sleep,
                () -> ThreadLocalRandom.current().nextDouble());
    }

    /**
     * For the engine's transport tasks: 5 tries, waiting up to 20, 40, 80 and 160 s between
     * them, aiida's defaults ({@code transport.task_retry_initial_interval} = 20,
     * {@code transport.task_maximum_attempts} = 5): long enough to ride out a login node's reboot.
     */
    public static Backoff forTransportTasks() {
        return new Backoff(Duration.ofSeconds(20), 2, Duration.ofMinutes(5), 5);
    }

    /** The same policy, waiting with {@code sleeper} and drawing jitter from {@code jitter}. */
    public Backoff with(Sleeper sleeper, DoubleSupplier jitter) {
        return new Backoff(initial, factor, max, attempts, sleeper, jitter);
    }

    /** The longest wait before retry {@code retry} (0 for the first retry). */
    public Duration cap(int retry) {
        double nanos = initial.toNanos() * Math.pow(factor, retry);
        return nanos >= max.toNanos() ? max : Duration.ofNanos((long) nanos);
    }

    /** The wait before retry {@code retry}: a random part of its {@link #cap(int) cap}. */
    public Duration delay(int retry) {
        double u = jitter.getAsDouble();
        if (!(u >= 0 && u < 1)) {
            throw new IllegalStateException("jitter must be in [0, 1), not " + u);
        }
        return Duration.ofNanos((long) (cap(retry).toNanos() * u));
    }

    /**
     * Runs {@code action} until it returns, at most {@link #attempts()} times. A failure that
     * {@code retryable} refuses, or the last one, is thrown with the earlier failures attached
     * as suppressed exceptions. If the thread is interrupted while waiting, the failure so far
     * is thrown at once and the interrupt flag is set again.
     */
    public <T> T retry(Supplier<T> action, Predicate<RuntimeException> retryable) {
        List<RuntimeException> earlier = new ArrayList<>();
        for (int attempt = 1; ; attempt++) {
            try {
                return action.get();
            } catch (RuntimeException e) {
                if (attempt >= attempts || !retryable.test(e)) {
                    throw withEarlier(e, earlier);
                }
                earlier.add(e);
                try {
                    sleeper.sleep(delay(attempt - 1));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    earlier.removeLast();
                    withEarlier(e, earlier).addSuppressed(interrupted);
                    throw e;
                }
            }
        }
    }

    private static RuntimeException withEarlier(RuntimeException last, List<RuntimeException> earlier) {
        for (RuntimeException e : earlier) {
            if (e != last) {
                last.addSuppressed(e);
            }
        }
        return last;
    }

    /** {@link #retry(Supplier, Predicate)} for transport operations: retries what is {@link TransportException#isTransient() transient}. */
    public <T> T retryTransient(Supplier<T> action) {
        return retry(action, Backoff::isTransient);
    }

    public static boolean isTransient(RuntimeException e) {
        return e instanceof TransportException t && t.isTransient();
    }
}
