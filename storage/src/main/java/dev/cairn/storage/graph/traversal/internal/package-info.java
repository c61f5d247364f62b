/**
 * The walk itself: {@link dev.cairn.storage.graph.traversal.internal.GraphTraversal} follows the
 * enabled rules from seed nodes to a fixpoint in the database, and its
 * {@link dev.cairn.storage.graph.traversal.internal.Closure} holds the result in temporary tables.
 * Deletion and the archive export build on it; other modules reach it through them (an
 * architecture test keeps them off this package).
 */
package dev.cairn.storage.graph.traversal.internal;
