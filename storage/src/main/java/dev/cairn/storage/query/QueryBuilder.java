package dev.cairn.storage.query;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Builds a {@link QuerySpec} in Java, vertex by vertex:
 * {@snippet :
 * QuerySpec spec = QueryBuilder.start()
 *     .node("s", v -> v.type("data.core.structure.StructureData.")
 *         .where(Filter.field("attributes.sites").longer(32))
 *         .project("id", "attributes.cell"))
 *     .node("c", v -> v.withOutgoing("s").type("process.calculation.").project("uuid"))
 *     .orderBy(Order.asc("s", "id"))
 *     .limit(100)
 *     .build();
 * }
 * {@link #build()} validates, exactly as {@link QuerySpec#fromJson} does.
 */
public final class QueryBuilder {

    private final List<Vertex> path = new ArrayList<>();
    private final List<Order> orderBy = new ArrayList<>();
    private Long limit;
    private Long offset;
    private boolean distinct;
    private Long after;

    private QueryBuilder() {}

    /** An empty query: add its vertices in path order, each joined to an earlier one. */
    public static QueryBuilder start() {
        return new QueryBuilder();
    }

    /** Adds a vertex of nodes, named {@code tag}, shaped by {@code vertex}. */
    public QueryBuilder node(String tag, Consumer<VertexBuilder> vertex) {
        return add(EntityType.NODE, tag, vertex);
    }

    /** Adds a vertex of groups. */
    public QueryBuilder group(String tag, Consumer<VertexBuilder> vertex) {
        return add(EntityType.GROUP, tag, vertex);
    }

    /** Adds a vertex of computers. */
    public QueryBuilder computer(String tag, Consumer<VertexBuilder> vertex) {
        return add(EntityType.COMPUTER, tag, vertex);
    }

    /** Adds a vertex of users. */
    public QueryBuilder user(String tag, Consumer<VertexBuilder> vertex) {
        return add(EntityType.USER, tag, vertex);
    }

    /** Adds a vertex of comments. */
    public QueryBuilder comment(String tag, Consumer<VertexBuilder> vertex) {
        return add(EntityType.COMMENT, tag, vertex);
    }

    /** Adds a vertex of log entries. */
    public QueryBuilder log(String tag, Consumer<VertexBuilder> vertex) {
        return add(EntityType.LOG, tag, vertex);
    }

    /** Adds a vertex of any entity type. */
    public QueryBuilder add(EntityType entity, String tag, Consumer<VertexBuilder> vertex) {
        VertexBuilder builder = new VertexBuilder(tag, entity);
        vertex.accept(builder);
        path.add(builder.build());
        return this;
    }

    /** Orders the rows by these keys, in this order of precedence. */
    public QueryBuilder orderBy(Order... keys) {
        orderBy.addAll(Arrays.asList(keys));
        return this;
    }

    /** Returns at most this many rows. */
    public QueryBuilder limit(long rows) {
        this.limit = rows;
        return this;
    }

    /** Skips this many rows first (keyset paging, {@link #after}, does not slow down with depth). */
    public QueryBuilder offset(long rows) {
        this.offset = rows;
        return this;
    }

    /** Drops repeated rows. */
    public QueryBuilder distinct() {
        this.distinct = true;
        return this;
    }

    /** Keyset paging: rows after this id, for a query ordered by one vertex's id. */
    public QueryBuilder after(long id) {
        this.after = id;
        return this;
    }

    /** The query as its JSON form, checked when it is run. */
    public QuerySpec build() {
        return new QuerySpec(path, orderBy, limit, offset, distinct, after);
    }
}
