/**
 * The codes calculation jobs run, as nodes of two types (installed on a computer, or portable with their
 * files): {@code CodeStore} finds them by label and computer, pages through them and deletes one that no
 * process used.
 *
 * <p>It builds on the graph, its deletions and the database packages; the node model does not know it.
 */
package dev.cairn.storage.graph.codes;
