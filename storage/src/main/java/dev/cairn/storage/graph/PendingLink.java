package dev.cairn.storage.graph;

/** An incoming link of a node that is not stored yet; written when the node is. */
public record PendingLink(Node source, LinkType type, String label) {}
