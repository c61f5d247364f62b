/**
 * Walking the graph by rule sets (AiiDA's DELETE and EXPORT rules, or any set of link types):
 * closures of nodes, deletion with a dry-run plan, and the object keys still referenced.
 */
package dev.cairn.storage.graph.traversal;
