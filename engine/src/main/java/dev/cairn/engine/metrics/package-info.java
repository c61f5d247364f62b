/**
 * What an engine counts as it runs, as plain numbers and listeners for a monitoring system to read:
 * {@link dev.cairn.engine.metrics.EngineMetrics} (from {@code Engine.metrics()}) gives the task
 * queue's depth, the outbox's size, the processes by state and the cache hits, and calls its step
 * listeners with a {@link dev.cairn.engine.metrics.StepTiming} after every task a worker of the
 * engine finishes. No metrics library: the server binds these to its own.
 */
package dev.cairn.engine.metrics;
