package dev.cairn.storage.query;

import java.util.ArrayList;
import java.util.List;

/**
 * A whole query: a path of vertices, each joined to an earlier one, then order, paging and
 * distinctness. It is the JSON form of a query ({@link #fromJson}, {@link #toJson}) and what
 * {@link QueryBuilder} builds; both go through the same validation and the same compiler.
 * <p>
 * A spec is valid once constructed: unknown types, fields, operators, relationships, tags and
 * casts, and values of the wrong shape, are refused with an {@link InvalidQueryException}.
 * Two defaults are filled in: a node vertex without a relationship joins the previous node
 * vertex {@code with_incoming}, and a query that projects nothing projects {@code *} of its
 * last vertex.
 *
 * @param path     the vertices, first to last
 * @param orderBy  the order keys, or empty for no order
 * @param limit    the most rows returned, or {@code null}
 * @param offset   rows skipped, or {@code null}
 * @param distinct whether equal rows are returned once
 * @param after    keyset paging: with the query ordered by one vertex's {@code id} alone, only
 *                 rows after this id (in that order) are returned, so page N costs what page 1 does
 */
public record QuerySpec(List<Vertex> path, List<Order> orderBy, Long limit, Long offset, boolean distinct, Long after) {

    public QuerySpec {
        if (path == null || path.isEmpty()) {
            throw new InvalidQueryException(
                    "a query needs a path of at least one vertex (node, group, computer, user, comment or log)");
        }
        path = withDefaults(path);
        orderBy = orderBy == null ? List.of() : List.copyOf(orderBy);
        SpecValidator.validate(path, orderBy, limit, offset, distinct, after);
    }

    private static List<Vertex> withDefaults(List<Vertex> path) {
        List<Vertex> filled = new ArrayList<>(path.size());
        for (int i = 0; i < path.size(); i++) {
            Vertex v = path.get(i);
            if (v == null) {
                throw new InvalidQueryException("path[" + i + "] is null");
            }
            if (i > 0
                    && v.join() == null
                    && v.entity() == EntityType.NODE
                    && path.get(i - 1).entity() == EntityType.NODE
                    && path.get(i - 1).tag() != null) {
                v = v.withJoin(
                        Join.of(Relationship.WITH_INCOMING, path.get(i - 1).tag()));
            }
            filled.add(v);
        }
        boolean projects = filled.stream()
                .anyMatch(
                        v -> !v.projections().isEmpty() || !v.edgeProjections().isEmpty());
        if (!projects) {
            filled.set(filled.size() - 1, filled.getLast().withProjections(List.of(Projection.of(Projection.ALL))));
        }
        return List.copyOf(filled);
    }

    /** Reads and validates the JSON form. */
    public static QuerySpec fromJson(String json) {
        return SpecJson.read(json);
    }

    /** The JSON form; {@code fromJson(toJson())} equals this spec. */
    public String toJson() {
        return SpecJson.write(this);
    }

    /** The vertex with this tag. */
    Vertex vertex(String tag) {
        for (Vertex v : path) {
            if (v.tag().equals(tag)) {
                return v;
            }
        }
        throw new IllegalStateException("no vertex " + tag);
    }

    int indexOf(String tag) {
        for (int i = 0; i < path.size(); i++) {
            if (path.get(i).tag().equals(tag)) {
                return i;
            }
        }
        return -1;
    }

    /** The index of the vertex whose link to its related node has this edge tag ({@code a--b}), or -1. */
    int indexOfEdge(String edgeTag) {
        for (int i = 0; i < path.size(); i++) {
            if (edgeTag.equals(SpecValidator.linkEdgeTag(path, path.get(i)))) {
                return i;
            }
        }
        return -1;
    }

    /** Whether any projection aggregates, which makes the other projections GROUP BY keys. */
    boolean aggregates() {
        return path.stream()
                .anyMatch(v -> v.projections().stream().anyMatch(p -> p.aggregate() != null)
                        || v.edgeProjections().stream().anyMatch(p -> p.aggregate() != null));
    }
}
