package dev.cairn.api.nodes;

import java.util.List;

import dev.cairn.storage.query.Filter;

/**
 * What a node list keeps: a condition on the nodes (their types included) and one on their user, each
 * null to keep all. {@link #parse} reads it from a list's parameters.
 */
public record NodeSelection(Filter node, Filter user) {

    /** Every node. */
    public static final NodeSelection ALL = new NodeSelection(null, null);

    /**
     * The selection of a list's parameters: {@code filter}s in the list's small language (see
     * {@link NodeFilters}), {@code type}s (node classes, comma-separated) and {@code query} (the query
     * builder's JSON filters); null or empty ones select everything.
     */
    public static NodeSelection parse(List<String> filters, String types, String query) {
        return NodeFilters.parse(filters, types, query);
    }
}
