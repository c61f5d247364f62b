package dev.cairn.engine.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;

/** Backoff with a sleeper that records instead of sleeping and jitter drawn from a list. */
class BackoffTest {

    private final List<Duration> slept = new ArrayList<>();

    private Backoff backoff(int attempts, Double... jitter) {
        Iterator<Double> draws = Arrays.asList(jitter).iterator();
        return new Backoff(Duration.ofSeconds(1), 2, Duration.ofSeconds(5), attempts, slept::add, draws::next);
    }

    private static TransportException transientFailure(int n) {
        return new TransportException("attempt " + n + " lost the connection", true, null);
    }

    @Test
    void waitsAreARandomPartOfACapThatGrowsByTheFactorUpToTheMaximum() {
        AtomicInteger calls = new AtomicInteger();
        String result = backoff(6, 0.5, 0.5, 0.5, 0.5, 0.999)
                .retry(
                        () -> {
                            if (calls.incrementAndGet() < 6) {
                                throw transientFailure(calls.get());
                            }
                            return "done";
                        },
                        Backoff::isTransient);

        assertEquals("done", result);
        // caps 1, 2, 4, 5 (max), 5 s
        assertEquals(
                List.of(
                        Duration.ofMillis(500),
                        Duration.ofSeconds(1),
                        Duration.ofSeconds(2),
                        Duration.ofMillis(2500),
                        Duration.ofNanos((long) (5e9 * 0.999))),
                slept);
    }

    @Test
    void fullJitterCanRetryAtOnce() {
        AtomicInteger calls = new AtomicInteger();
        backoff(2, 0.0).retryTransient(() -> calls.incrementAndGet() == 1 ? fail(transientFailure(1)) : "ok");
        assertEquals(List.of(Duration.ZERO), slept);
    }

    @Test
    void aFailureThatIsNotRetryableIsThrownAtOnce() {
        TransportException missing = new TransportException("cannot read /x: no such file", false, null);
        var thrown = assertThrows(TransportException.class, () -> backoff(5).retryTransient(() -> fail(missing)));
        assertSame(missing, thrown);
        assertEquals(List.of(), slept);
    }

    @Test
    void theLastFailureIsThrownWithTheEarlierOnesSuppressed() {
        AtomicInteger calls = new AtomicInteger();
        var thrown = assertThrows(
                TransportException.class,
                () -> backoff(3, 0.1, 0.1).retryTransient(() -> fail(transientFailure(calls.incrementAndGet()))));

        assertEquals("attempt 3 lost the connection", thrown.getMessage());
        assertEquals(
                List.of("attempt 1 lost the connection", "attempt 2 lost the connection"),
                Arrays.stream(thrown.getSuppressed()).map(Throwable::getMessage).toList());
        assertEquals(2, slept.size(), "no wait after the last attempt");
    }

    @Test
    void anInterruptedWaitStopsRetryingAndKeepsTheInterrupt() {
        Backoff interrupted = new Backoff(
                Duration.ofSeconds(1),
                2,
                Duration.ofSeconds(5),
                5,
                d -> {
                    throw new InterruptedException();
                },
                () -> 0.5);
        AtomicInteger calls = new AtomicInteger();
        try {
            var thrown = assertThrows(
                    TransportException.class,
                    () -> interrupted.retryTransient(() -> fail(transientFailure(calls.incrementAndGet()))));
            assertEquals(1, calls.get());
            assertTrue(Thread.currentThread().isInterrupted());
            assertTrue(thrown.getSuppressed()[0] instanceof InterruptedException);
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void theTransportTaskDefaultsAreAiidas() {
        Backoff b = Backoff.forTransportTasks();
        assertEquals(5, b.attempts());
        assertEquals(
                List.of(
                        Duration.ofSeconds(20),
                        Duration.ofSeconds(40),
                        Duration.ofSeconds(80),
                        Duration.ofSeconds(160)),
                List.of(b.cap(0), b.cap(1), b.cap(2), b.cap(3)));
    }

    @Test
    void nonsensicalPoliciesAreRefused() {
        assertThrows(InvalidInputException.class, () -> new Backoff(Duration.ZERO, 2, Duration.ofSeconds(1), 3));
        assertThrows(
                InvalidInputException.class, () -> new Backoff(Duration.ofSeconds(2), 2, Duration.ofSeconds(1), 3));
        assertThrows(
                InvalidInputException.class, () -> new Backoff(Duration.ofSeconds(1), 0.5, Duration.ofSeconds(1), 3));
        assertThrows(
                InvalidInputException.class, () -> new Backoff(Duration.ofSeconds(1), 2, Duration.ofSeconds(1), 0));
    }

    private static String fail(RuntimeException e) {
        throw e;
    }
}
