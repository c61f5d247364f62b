/**
 * A plugin of example processes, registered through {@code META-INF/services} by
 * {@code ExamplesPlugin}: arithmetic calcfunctions, the calculation job {@code arithmetic.add}
 * (bash through a scheduler), and the work chains {@code AddMultiply}, {@code AddCalcJobWorkChain}
 * and {@code SumSeries}.
 *
 * <p>It uses only what any plugin may: the plugin API ({@code engine.process},
 * {@code engine.plugin}) and the graph's data types. The demos and the engine benchmarks run these
 * processes.
 */
package dev.cairn.examples;
