package dev.cairn.storage.views;

import java.util.UUID;

import dev.cairn.storage.graph.NodeFiles;

/** A node's files as its row names them: the object keys under their paths. */
public record NodeFileTree(long id, UUID uuid, NodeFiles files) {}
