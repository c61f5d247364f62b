/**
 * The graph's statistics: how many nodes there are per node type, process type and day of
 * creation, and how many processes per state, for everyone or for one user
 * ({@code GraphStatistics}, {@code Statistics}).
 *
 * <p>They are read from counts kept as nodes are stored (by the statements that store them, see
 * {@code graph.internal.NodeTallies}), deleted and change state (by triggers; the migrations
 * {@code node_statistics} and {@code node_tally_written_with_nodes}), never by counting the node
 * table, so reading them costs the same for any size of graph. It builds on the database package only.
 */
package dev.cairn.storage.graph.statistics;
