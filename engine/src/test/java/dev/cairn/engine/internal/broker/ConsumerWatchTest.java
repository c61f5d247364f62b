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
        assertTrue(lostAtLastLook(held(7, 0), held(7, 0)));
    }

    @Test
    void aLookThatFindsTasksWaitingWhileOursHeldNoneAsksForAnother() {
        assertFalse(watch.lost(consumer, new QueueCounts(5, 2), held(7, 1)));
        assertFalse(watch.suspects());
        assertFalse(watch.lost(consumer, new QueueCounts(5, 2), held(7, 0)));
        assertTrue(watch.suspects());
    }

    @Test
    void aConsumerGivenTasksBetweenTwoLooksIsThere() {
        assertFalse(lostAtLastLook(held(7, 0), held(9, 0)));
    }

    @Test
    void aConsumerWithItsPrefetchFullIsGivenNothingAndIsThere() {
        assertFalse(lostAtLastLook(held(7, 4), held(7, 4), held(7, 0)));
    }

    /** Looks with tasks waiting and other workers consuming: none but the last may find the consumer lost. */
    private boolean lostAtLastLook(ConsumerWatch.Held... looks) {
        for (int i = 0; i < looks.length - 1; i++) {
            assertFalse(watch.lost(consumer, new QueueCounts(5, 2), looks[i]), "look " + (i + 1));
        }
        return watch.lost(consumer, new QueueCounts(5, 2), looks[looks.length - 1]);
    }

    private static ConsumerWatch.Held held(long delivered, int unsettled) {
        return new ConsumerWatch.Held(delivered, unsettled);
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
