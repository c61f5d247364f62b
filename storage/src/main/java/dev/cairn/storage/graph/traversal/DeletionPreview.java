package dev.cairn.storage.graph.traversal;

import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * What a deletion would remove now, as a report shows it before anything is removed.
 *
 * @param count   the nodes it would remove, seeds included
 * @param byType  those nodes per {@code node_type}
 * @param listed  the first of them by id, as many as were asked for
 * @param unended processes among them that have not ended (whose nodes are not sealed), by id, as many as
 *                were asked for: deleting them would pull the graph from under their workers
 */
public record DeletionPreview(long count, Map<String, Long> byType, List<Listed> listed, List<Unended> unended) {

    public DeletionPreview {
        byType = Map.copyOf(byType);
        listed = List.copyOf(listed);
        unended = List.copyOf(unended);
    }

    /** A node the deletion would take. */
    public record Listed(UUID uuid, String nodeType, String label) {}

    /** A process the deletion would take that has not ended, and its state. */
    public record Unended(UUID uuid, String state) {}
}
