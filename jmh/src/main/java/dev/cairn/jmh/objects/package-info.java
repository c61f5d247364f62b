/**
 * Benchmarks of the object store: JMH classes that each measure one operation next to a baseline of
 * the raw cost of the same bytes (a plain file write or read, a JDK digest), and check their
 * results at tear-down; plus {@code ObjectStoreComparison}, Cairn's side of the comparison with
 * disk-objectstore, and the workload files both sides read.
 *
 * <p>They depend on the object store alone (and zstd for the codec comparison).
 * {@code jmh/README.md} says how to run them.
 */
package dev.cairn.jmh.objects;
