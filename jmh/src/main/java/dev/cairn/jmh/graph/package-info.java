/**
 * Benchmarks of the provenance graph on PostgreSQL: node hashing, storing, queries and the graph's
 * statistics, each against a baseline of the same work done raw (plain BLAKE2b, bare COPY or INSERT,
 * the same SQL through plain JDBC, counting the node table); plus {@code GraphComparison}, Cairn's
 * side of the comparison with aiida-core.
 *
 * <p>They depend on storage and the PostgreSQL driver. The database set-up and workload data here
 * ({@code GraphBench}, {@code GraphData}) are shared with the engine benchmarks.
 */
package dev.cairn.jmh.graph;
