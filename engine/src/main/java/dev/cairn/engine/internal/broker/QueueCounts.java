package dev.cairn.engine.internal.broker;

/**
 * What a passive declare tells of a queue.
 *
 * @param ready     messages waiting for a consumer
 * @param consumers consumers on the queue
 */
public record QueueCounts(long ready, int consumers) {}
