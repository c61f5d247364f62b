/**
 * Groups of nodes, with set-based membership changes: {@code GroupStore} adds and removes any
 * number of nodes in one statement, never one parameter per node.
 *
 * <p>It builds on the graph and the database packages, and on traversal to delete a group with its
 * nodes; nothing else of storage depends on it.
 */
package dev.cairn.storage.graph.groups;
