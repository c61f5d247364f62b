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

    public static QueryBuilder start() {
        return new QueryBuilder();
    }

    public QueryBuilder node(String tag, Consumer<VertexBuilder> vertex) {
        return add(EntityType.NODE, tag, vertex);
    }

    public QueryBuilder group(String tag, Consumer<VertexBuilder> vertex) {
        return add(EntityType.GROUP, tag, vertex);
    }

    public QueryBuilder computer(String tag, Consumer<VertexBuilder> vertex) {
        return add(EntityType.COMPUTER, tag, vertex);
    }

    public QueryBuilder user(String tag, Consumer<VertexBuilder> vertex) {
        return add(EntityType.USER, tag, vertex);
    }

    public QueryBuilder comment(String tag, Consumer<VertexBuilder> vertex) {
        return add(EntityType.COMMENT, tag, vertex);
    }

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

    public QueryBuilder orderBy(Order... keys) {
        orderBy.addAll(Arrays.asList(keys));
        return this;
    }

    public QueryBuilder limit(long rows) {
        this.limit = rows;
        return this;
    }

    public QueryBuilder offset(long rows) {
        this.offset = rows;
        return this;
    }

    public QueryBuilder distinct() {
        this.distinct = true;
        return this;
    }

    /** Keyset paging: rows after this id, for a query ordered by one vertex's id. */
    public QueryBuilder after(long id) {
        this.after = id;
        return this;
    }

    public QuerySpec build() {
        return new QuerySpec(path, orderBy, limit, offset, distinct, after);
    }
}
