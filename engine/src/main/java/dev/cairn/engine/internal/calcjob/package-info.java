/**
 * Internal: the machinery of calculation jobs. Their stages (prepare, upload, submit; retrieve and
 * parse), access to computers through their transports and schedulers with cluster-wide connection
 * limits, one status poll per computer however many workers there are, and retries with backoff
 * that pause a job when its computer stays unreachable.
 *
 * <p>Not for plugins or the server, which use the public packages; the engine's architecture tests
 * keep the plugin API off it and its types out of every public signature not marked
 * {@code @Internal}. It builds on the internal state, the transports, the schedulers and storage,
 * never on the runtime or the broker.
 */
package dev.cairn.engine.internal.calcjob;
