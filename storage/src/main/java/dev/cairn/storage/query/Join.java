package dev.cairn.storage.query;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

import dev.cairn.storage.graph.LinkType;

/**
 * How a vertex joins an earlier one of the path.
 *
 * @param relationship the relationship, named from the joining vertex's side
 * @param tag          the earlier vertex
 * @param maxDepth     for ancestors and descendants: the most links walked, or {@code null} for no limit
 * @param linkTypes    for ancestors and descendants: the links walked, or {@code null} for the data
 *                     provenance ({@link #DATA_PROVENANCE})
 */
public record Join(Relationship relationship, String tag, Integer maxDepth, Set<LinkType> linkTypes) {

    /** What ancestors and descendants walk by default: CREATE and INPUT_CALC links. */
    public static final Set<LinkType> DATA_PROVENANCE = Set.copyOf(EnumSet.of(LinkType.CREATE, LinkType.INPUT_CALC));

    public Join {
        Objects.requireNonNull(relationship, "relationship");
        Objects.requireNonNull(tag, "tag");
        linkTypes = linkTypes == null ? null : Set.copyOf(linkTypes);
    }

    /**
     * Joins the vertex tagged {@code tag} by {@code relationship}: for ancestors and descendants with no depth limit,
     * over the data provenance links.
     */
    public static Join of(Relationship relationship, String tag) {
        return new Join(relationship, tag, null, null);
    }

    /** The links a recursive walk follows. */
    Set<LinkType> walkedLinkTypes() {
        return linkTypes == null ? DATA_PROVENANCE : linkTypes;
    }
}
