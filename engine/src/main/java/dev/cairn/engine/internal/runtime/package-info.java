/**
 * Internal: durable stepping. {@code StepExecutor} runs one step of a process with its row locked
 * and commits its nodes, links, checkpoint, state and outbox in one transaction; around it, the
 * work chain outline interpreter, the runner of calcfunctions and workfunctions, the scope a step
 * offers a work chain, and caching within a step.
 *
 * <p>Not for plugins or the server, which use the public packages; the engine's architecture tests
 * keep the plugin API off it and its types out of every public signature not marked
 * {@code @Internal}. It builds on the internal state, calculation-job and caching packages, never
 * on the broker or the workers; the launcher, the workers and the engine drive it.
 */
package dev.cairn.engine.internal.runtime;
