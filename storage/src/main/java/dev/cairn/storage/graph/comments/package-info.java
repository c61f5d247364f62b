/**
 * Comments users attach to nodes: mutable, and not part of provenance. {@code CommentStore} adds,
 * edits and removes them; the node they are on stays as it was stored.
 *
 * <p>It builds on the database package and the error families; nothing else of storage depends on
 * it.
 */
package dev.cairn.storage.graph.comments;
