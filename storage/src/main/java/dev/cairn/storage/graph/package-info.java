/**
 * The provenance graph's node model and its store: the sealed node hierarchy, links and their
 * rules, hashing, storing nodes one by one or in batches, and process logs.
 *
 * <p>The node types stay in this one package because a sealed hierarchy must, and because the
 * store marks nodes stored through package-private hooks that no caller can reach. The stores
 * and traversals built on nodes live in the subpackages, which this package does not know.
 */
package dev.cairn.storage.graph;
