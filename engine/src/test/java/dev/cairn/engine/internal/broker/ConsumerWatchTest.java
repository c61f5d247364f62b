package dev.cairn.engine.internal.broker;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConsumerWatchTest {

    private final ConsumerWatch watch = new ConsumerWatch();
    private final Object consumer = new Object();

    @Test
    void aQueueThatIsGoneHasNoConsumerOfOurs() {
        assertTrue(watch.lost(consumer, null, new ConsumerWatch.Held(0, 0)));
    }

    @Test
    void tasksWaitingWithNoConsumerAtAllMeanOursIsGone() {
        assertTrue(watch.lost(consumer, new QueueCounts(3, 0), new ConsumerWatch.Held(0, 0)));
    }

    @Test
    void anEmptyQueueWithoutConsumersLosesNothing() {
        assertFalse(watch.lost(consumer, new QueueCounts(0, 0), new ConsumerWatch.Held(0, 0)));
    }

    @Test
    void tasksWaitingTwiceWhileOursHeldNoneAndGotNoneMeanOthersConsumeButNotUs() {
        assertFalse(watch.lost(consumer, new QueueCounts(5, 2), new ConsumerWatch.Held(7, 0)));
        assertTrue(watch.lost(consumer, new QueueCounts(5, 2), new ConsumerWatch.Held(7, 0)));
    }

    @Test
    void aConsumerGivenTasksBetweenTwoLooksIsThere() {
        assertFalse(watch.lost(consumer, new QueueCounts(5, 2), new ConsumerWatch.Held(7, 0)));
        assertFalse(watch.lost(consumer, new QueueCounts(5, 2), new ConsumerWatch.Held(9, 0)));
    }

    @Test
    void aConsumerWithItsPrefetchFullIsGivenNothingAndIsThere() {
        assertFalse(watch.lost(consumer, new QueueCounts(5, 2), new ConsumerWatch.Held(7, 4)));
        assertFalse(watch.lost(consumer, new QueueCounts(5, 2), new ConsumerWatch.Held(7, 4)));
        assertFalse(watch.lost(consumer, new QueueCounts(5, 2), new ConsumerWatch.Held(7, 0)));
    }

    @Test
    void tasksWaitingOnlyOnceIsNotEnough() {
        assertFalse(watch.lost(consumer, new QueueCounts(5, 2), new ConsumerWatch.Held(7, 0)));
        assertFalse(watch.lost(consumer, new QueueCounts(0, 2), new ConsumerWatch.Held(7, 0)));
        assertFalse(watch.lost(consumer, new QueueCounts(5, 2), new ConsumerWatch.Held(7, 0)));
    }

    @Test
    void aNewConsumerStartsWithNoLookBehindIt() {
        assertFalse(watch.lost(consumer, new QueueCounts(5, 2), new ConsumerWatch.Held(7, 0)));
        assertFalse(watch.lost(new Object(), new QueueCounts(5, 2), new ConsumerWatch.Held(0, 0)));
    }
}
