/** Comments users attach to nodes: mutable, and not part of provenance. */
package dev.cairn.storage.graph.comments;
