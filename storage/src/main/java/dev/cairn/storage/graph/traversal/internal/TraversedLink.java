package dev.cairn.storage.graph.traversal.internal;

import dev.cairn.storage.graph.LinkType;

/** A link that a traversal followed, as stored. */
public record TraversedLink(long id, long inputId, long outputId, LinkType type, String label) {}
