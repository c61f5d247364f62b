/**
 * The graph's statistics: how many nodes there are per node type, process type and day of
 * creation, and how many processes per state, for everyone or for one user
 * ({@code GraphStatistics}, {@code Statistics}).
 *
 * <p>They are read from counts that triggers keep as nodes are stored, deleted and change state
 * (the migration {@code node_statistics}), never by counting the node table, so reading them costs
 * the same for any size of graph. It builds on the database package only.
 */
package dev.cairn.storage.graph.statistics;
