package dev.cairn.engine.worker;

import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The kill signals a worker received in the last minute. A kill signals the process's step, then waits
 * for its row; a task delivered as the signal arrives starts its step after the signal found nothing
 * running, takes the row first, and without this would run to its end while the kill waits for it.
 */
final class RecentKills {

    private static final long KEEP_NANOS = Duration.ofMinutes(1).toNanos();

    private final Map<Long, Long> signalledAt = new ConcurrentHashMap<>();
    /** The signals in the order they came, for forgetting the old ones without a scan. */
    private final Queue<Long> order = new ConcurrentLinkedQueue<>();

    synchronized void add(long processId) {
        long now = System.nanoTime();
        signalledAt.put(processId, now);
        order.add(processId);
        for (Long head; (head = order.peek()) != null; ) {
            Long at = signalledAt.get(head);
            if (at != null && now - at <= KEEP_NANOS) {
                break;
            }
            order.poll();
            if (at != null) {
                signalledAt.remove(head, at);
            }
        }
    }

    boolean contains(long processId) {
        Long at = signalledAt.get(processId);
        return at != null && System.nanoTime() - at <= KEEP_NANOS;
    }
}
