package dev.cairn.engine.metrics;

/**
 * The broker's task queue as the broker counts it.
 *
 * @param name      the queue ({@code <prefix>.tasks})
 * @param ready     messages waiting for a worker (not those a worker holds unacknowledged)
 * @param consumers workers consuming from it, counted by their consumers (one per worker)
 */
public record TaskQueueState(String name, long ready, int consumers) {}
