/**
 * Starting processes: {@link dev.cairn.engine.launch.Launcher} validates inputs against the spec,
 * then stores the process node, its inputs, its process row and its first task in one transaction,
 * and either submits it to the workers or runs it in this thread; it also prepares dry runs of
 * calculation jobs and explains cache misses. {@link dev.cairn.engine.launch.JsonInputs} decodes a
 * launch given in JSON, in the form the spec's input schema publishes.
 *
 * <p>It builds on the plugin API and the internal state, runtime, calculation-job and caching
 * packages, and shows none of their types. The engine hands it out; the demos, the benchmarks and
 * tests launch through it, and the server will (with {@code JsonInputs}).
 */
package dev.cairn.engine.launch;
