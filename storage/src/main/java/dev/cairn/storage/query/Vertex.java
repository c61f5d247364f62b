package dev.cairn.storage.query;

import java.util.List;
import java.util.Objects;

/**
 * One step of a query path: rows of an entity, joined to an earlier vertex, filtered, and
 * projected. Links between nodes are this vertex's edge: with {@code with_incoming} and
 * {@code with_outgoing} its {@code type} and {@code label} can be filtered and projected, and
 * rows find edge values under the tag {@code <related tag>--<tag>}.
 *
 * @param tag             the vertex's name, unique in the path
 * @param entity          what rows the vertex visits
 * @param nodeType        for nodes: a {@code node_type} (or prefix such as {@code data.core.}), or {@code null}
 * @param subclassing     whether {@code nodeType} also matches the types below it
 * @param join            how it joins an earlier vertex; {@code null} only for the first
 * @param filter          a condition on its rows, or {@code null}
 * @param projections     what each result row holds of it
 * @param edgeFilter      a condition on the link to the related vertex, or {@code null}
 * @param edgeProjections what each result row holds of that link
 */
public record Vertex(
        String tag,
        EntityType entity,
        String nodeType,
        boolean subclassing,
        Join join,
        Filter filter,
        List<Projection> projections,
        Filter edgeFilter,
        List<Projection> edgeProjections) {

    public Vertex {
        Objects.requireNonNull(entity, "entity");
        projections = projections == null ? List.of() : List.copyOf(projections);
        edgeProjections = edgeProjections == null ? List.of() : List.copyOf(edgeProjections);
    }

    /** The tag under which rows hold this vertex's edge values. */
    public String edgeTag() {
        return join == null ? null : join.tag() + "--" + tag;
    }

    Vertex withJoin(Join join) {
        return new Vertex(tag, entity, nodeType, subclassing, join, filter, projections, edgeFilter, edgeProjections);
    }

    Vertex withProjections(List<Projection> projections) {
        return new Vertex(tag, entity, nodeType, subclassing, join, filter, projections, edgeFilter, edgeProjections);
    }
}
