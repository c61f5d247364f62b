/**
 * Internal: the engine's own record of processes beside their nodes. The {@code process} table and
 * its rows, checkpoints (a work chain's place in its outline, a calculation job's stage), the
 * outbox of tasks written in the transaction that decides them, the engine's log records, and
 * {@code ProcessStates}, the one writer of a process's state, paused flag and status.
 *
 * <p>Not for plugins or the server, which use the public packages; the engine's architecture tests
 * keep the plugin API off it and its types out of every public signature not marked
 * {@code @Internal}. It is the bottom of the internals: it depends on the plugin API, the events
 * and storage, never on the runtime, calculation jobs, caching or the broker.
 */
package dev.cairn.engine.internal.state;
