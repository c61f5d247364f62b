package dev.cairn.api.ops;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * A value read at most once per {@code maxAge}, for gauges whose reading costs a query or a round
 * trip to the broker: however often they are scraped, the database and the broker are asked at most
 * that often. A reading that fails is kept as absent for as long, so an outage does not make every
 * scrape wait for its timeout.
 */
final class Recent<T> {

    private record Reading<T>(T value, long at) {}

    private final Supplier<T> read;
    private final long maxAgeNanos;
    private Reading<T> last;

    Recent(Supplier<T> read, Duration maxAge) {
        this.read = read;
        this.maxAgeNanos = maxAge.toNanos();
    }

    /** The value, read again if the last reading is older than the maximum age; null if that failed. */
    synchronized T get() {
        long now = System.nanoTime();
        if (last == null || now - last.at() > maxAgeNanos) {
            T value;
            try {
                value = read.get();
            } catch (RuntimeException e) {
                value = null;
            }
            last = new Reading<>(value, System.nanoTime());
        }
        return last.value();
    }
}
