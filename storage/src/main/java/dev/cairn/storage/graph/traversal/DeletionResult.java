package dev.cairn.storage.graph.traversal;

import java.util.Map;

/**
 * What a deletion removed, counted by the statements that removed it.
 *
 * @param nodes            nodes deleted
 * @param nodesByType      nodes deleted per {@code node_type}
 * @param links            links removed with their nodes
 * @param groupMemberships group memberships removed (the groups stay)
 * @param comments         comments removed
 * @param logs             log records removed
 */
public record DeletionResult(
        long nodes, Map<String, Long> nodesByType, long links, long groupMemberships, long comments, long logs) {

    public DeletionResult {
        nodesByType = Map.copyOf(nodesByType);
    }
}
