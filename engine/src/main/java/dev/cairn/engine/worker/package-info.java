/**
 * The daemon side of the engine: a {@link dev.cairn.engine.worker.Worker} takes tasks from the
 * broker and runs each as one durable step, up to its number of slots at once, and an
 * {@link dev.cairn.engine.worker.OutboxRelay} makes sure every committed task reaches the broker
 * whatever happened to the worker that committed it.
 *
 * <p>It builds on the internal runtime, state, calculation-job and broker packages. The engine
 * starts workers ({@code Engine.startWorker}); the demos and the fault tests run them, and the
 * server's worker role will.
 */
package dev.cairn.engine.worker;
