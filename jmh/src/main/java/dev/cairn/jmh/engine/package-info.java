/**
 * Benchmarks of the engine: {@code StepBenchmark} times the hot path without the broker against the
 * raw database cost of the same rows, and {@code EngineComparison} is Cairn's side of the
 * comparison with aiida-core, with worker JVMs on RabbitMQ.
 *
 * <p>They depend on the engine, the example plugin, the engine's test fixtures (the worker JVM's
 * main) and the graph benchmarks' database set-up.
 */
package dev.cairn.jmh.engine;
