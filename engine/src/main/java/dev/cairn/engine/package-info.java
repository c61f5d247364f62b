/**
 * The engine of one Cairn installation, wired: {@link dev.cairn.engine.Engine} opens the database,
 * the object store, the plugins and the broker, and hands out the launcher, process control, event
 * subscriptions and workers.
 *
 * <p>It is the one place that assembles the engine's packages, internal ones included; nothing of
 * the engine depends on it. The demos and the benchmarks start here, as the server will.
 */
package dev.cairn.engine;
