package dev.cairn.storage.graph;

/** A stored link seen from one of its ends: the node at the other end, the type and the label. */
public record LinkTriple(long nodeId, String nodeType, LinkType type, String label) {}
