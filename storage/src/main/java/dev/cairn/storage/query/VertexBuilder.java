package dev.cairn.storage.query;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import dev.cairn.storage.graph.LinkType;

/** One vertex of a {@link QueryBuilder} path: its relationship, type, filters and projections. */
public final class VertexBuilder {

    private final String tag;
    private final EntityType entity;
    private String nodeType;
    private boolean subclassing = true;
    private Relationship relationship;
    private String related;
    private Integer maxDepth;
    private Set<LinkType> linkTypes;
    private final List<Filter> filters = new ArrayList<>();
    private final List<Projection> projections = new ArrayList<>();
    private final List<Filter> edgeFilters = new ArrayList<>();
    private final List<Projection> edgeProjections = new ArrayList<>();

    VertexBuilder(String tag, EntityType entity) {
        this.tag = tag;
        this.entity = entity;
    }

    /** Nodes of this type and the types below it (a prefix such as {@code data.core.} also works). */
    public VertexBuilder type(String nodeType) {
        this.nodeType = nodeType;
        this.subclassing = true;
        return this;
    }

    /** Nodes of exactly this type. */
    public VertexBuilder exactType(String nodeType) {
        this.nodeType = nodeType;
        this.subclassing = false;
        return this;
    }

    /** Adds a filter; several must all hold. */
    public VertexBuilder where(Filter filter) {
        filters.add(filter);
        return this;
    }

    /** Projects columns, JSON paths ({@code attributes.cell}) or {@code *}. */
    public VertexBuilder project(String... fields) {
        for (String f : fields) {
            projections.add(Projection.of(f));
        }
        return this;
    }

    /** Also returns these projections of the vertex (with casts or aggregates). */
    public VertexBuilder project(Projection... more) {
        projections.addAll(Arrays.asList(more));
        return this;
    }

    /** Filters the link to the related node ({@code type}, {@code label}). */
    public VertexBuilder edgeWhere(Filter filter) {
        edgeFilters.add(filter);
        return this;
    }

    /** Returns these fields of the link to the related node ({@code type}, {@code label}). */
    public VertexBuilder edgeProject(String... fields) {
        for (String f : fields) {
            edgeProjections.add(Projection.of(f));
        }
        return this;
    }

    /** Joins this vertex to the earlier vertex {@code tag} by {@code relationship}. */
    public VertexBuilder related(Relationship relationship, String tag) {
        this.relationship = relationship;
        this.related = tag;
        return this;
    }

    /** The outputs of node {@code tag}. */
    public VertexBuilder withIncoming(String tag) {
        return related(Relationship.WITH_INCOMING, tag);
    }

    /** The inputs of node {@code tag}. */
    public VertexBuilder withOutgoing(String tag) {
        return related(Relationship.WITH_OUTGOING, tag);
    }

    /** The descendants of node {@code tag}. */
    public VertexBuilder withAncestors(String tag) {
        return related(Relationship.WITH_ANCESTORS, tag);
    }

    /** The ancestors of node {@code tag}. */
    public VertexBuilder withDescendants(String tag) {
        return related(Relationship.WITH_DESCENDANTS, tag);
    }

    /** Nodes in group {@code tag}, or the groups of user {@code tag}. */
    public VertexBuilder withGroup(String tag) {
        return related(Relationship.WITH_GROUP, tag);
    }

    /** The groups, computer, user, comments or logs of node {@code tag}. */
    public VertexBuilder withNode(String tag) {
        return related(Relationship.WITH_NODE, tag);
    }

    /** The nodes that ran on computer {@code tag}. */
    public VertexBuilder withComputer(String tag) {
        return related(Relationship.WITH_COMPUTER, tag);
    }

    /** The nodes, groups or comments of user {@code tag}. */
    public VertexBuilder withUser(String tag) {
        return related(Relationship.WITH_USER, tag);
    }

    /** The node or user of comment {@code tag}. */
    public VertexBuilder withComment(String tag) {
        return related(Relationship.WITH_COMMENT, tag);
    }

    /** The node of log entry {@code tag}. */
    public VertexBuilder withLog(String tag) {
        return related(Relationship.WITH_LOG, tag);
    }

    /** For ancestors and descendants: walk at most this many links. */
    public VertexBuilder maxDepth(int links) {
        this.maxDepth = links;
        return this;
    }

    /** For ancestors and descendants: walk these links (default CREATE and INPUT_CALC). */
    public VertexBuilder linkTypes(LinkType first, LinkType... more) {
        this.linkTypes = EnumSet.of(first, more);
        return this;
    }

    /** For ancestors and descendants: walk all six kinds of link, the logical provenance too. */
    public VertexBuilder allLinks() {
        this.linkTypes = EnumSet.allOf(LinkType.class);
        return this;
    }

    Vertex build() {
        Join join = relationship == null ? null : new Join(relationship, related, maxDepth, linkTypes);
        if (join == null && (maxDepth != null || linkTypes != null)) {
            throw new InvalidQueryException(
                    "vertex '" + tag + "': maxDepth and linkTypes go with withAncestors or withDescendants");
        }
        return new Vertex(
                tag,
                entity,
                nodeType,
                subclassing,
                join,
                combine(filters),
                projections,
                combine(edgeFilters),
                edgeProjections);
    }

    private static Filter combine(List<Filter> filters) {
        return filters.isEmpty() ? null : filters.size() == 1 ? filters.getFirst() : new Filter.And(filters);
    }
}
