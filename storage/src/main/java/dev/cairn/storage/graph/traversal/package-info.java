/**
 * Walking the graph by rule sets (AiiDA's DELETE and EXPORT rules, or any set of link types):
 * closures of nodes, deletion with a dry-run plan, and the object keys still referenced.
 *
 * <p>The work happens in the database, set by set in temporary tables, so memory stays flat
 * whatever the size of the closure. It builds on the graph, the database and the object store's
 * keys; groups use it to delete a group with its nodes, and maintenance uses the referenced keys to
 * clean the object store.
 */
package dev.cairn.storage.graph.traversal;
