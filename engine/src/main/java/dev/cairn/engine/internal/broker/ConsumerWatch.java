package dev.cairn.engine.internal.broker;

/**
 * Decides, from successive looks at the task queue, whether the broker still has this worker's
 * consumer while the worker believes it consumes. The broker says so by a {@code basic.cancel}, but
 * that can be lost (a queue deleted and declared again at once, a quorum queue's leader restarted), and
 * AMQP has no way to ask about one consumer: a passive declare gives only the queue's ready tasks and
 * consumers. So the consumer is taken as lost when the queue is gone, when tasks wait and the queue has
 * no consumer at all, or when tasks waited at two looks in a row while this consumer held none and was
 * given none in between (a live consumer with free prefetch is given a waiting task at once; with other
 * workers consuming, the consumer count alone cannot tell that this one is missing). Not thread-safe:
 * one thread looks.
 */
final class ConsumerWatch {

    /** What the consumer had at one look: tasks delivered to it so far, and those it holds unsettled. */
    record Held(long delivered, int unsettled) {}

    private Object lastSubscription;
    private Held lastIdleWithTasksWaiting;

    /** Whether the last look found tasks waiting while the consumer held none: the next look decides. */
    boolean suspects() {
        return lastIdleWithTasksWaiting != null;
    }

    /**
     * One look; true if the consumer {@code subscription} is lost.
     *
     * @param counts the task queue's counts, or null if the broker has no such queue
     */
    boolean lost(Object subscription, QueueCounts counts, Held held) {
        if (subscription != lastSubscription) {
            lastSubscription = subscription;
            lastIdleWithTasksWaiting = null;
        }
        if (counts == null || (counts.ready() > 0 && counts.consumers() == 0)) {
            return true;
        }
        Held before = lastIdleWithTasksWaiting;
        boolean idleWithTasksWaiting = counts.ready() > 0 && held.unsettled() == 0;
        lastIdleWithTasksWaiting = idleWithTasksWaiting ? held : null;
        return idleWithTasksWaiting && before != null && before.delivered() == held.delivered();
    }
}
