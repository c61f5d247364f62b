package dev.cairn.storage.query;

import static dev.cairn.storage.query.QueryFixture.D1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.NodeRecord;
import dev.cairn.storage.testing.TestDatabase;

/** Columns, JSON paths, casts, whole rows, and aggregates computed in the database. */
class ProjectionsIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;

    @BeforeAll
    static void fixture() throws SQLException {
        database = QueryFixture.open(db);
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private static Row node(long id, Projection... projections) {
        return GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node(
                                        "n",
                                        v -> v.where(Filter.field("id").eq(id)).project(projections))
                                .build())
                .one();
    }

    private static Object value(long id, String field, Cast cast) {
        return node(id, Projection.of(field, cast)).get(0);
    }

    @Test
    void columnsReadAsTheirJavaTypes() {
        Row row = GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node(
                                        "n",
                                        v -> v.where(Filter.field("id").eq(8))
                                                .project(
                                                        "id",
                                                        "uuid",
                                                        "node_type",
                                                        "process_type",
                                                        "label",
                                                        "ctime",
                                                        "user_id",
                                                        "computer_id",
                                                        "hash",
                                                        "attributes",
                                                        "extras"))
                                .build())
                .one();
        assertEquals(8L, row.get("n", "id"));
        assertInstanceOf(UUID.class, row.get("n", "uuid"));
        assertEquals("process.calculation.calcfunction.CalcFunctionNode.", row.get("n", "node_type"));
        assertEquals("add", row.get("n", "process_type"));
        assertEquals(
                OffsetDateTime.parse("2024-01-01T08:00Z").toInstant(),
                row.get("n", "ctime", OffsetDateTime.class).toInstant());
        assertEquals(1L, row.get("n", "computer_id"));
        assertNull(row.get("n", "hash"));
        assertEquals(Map.of("process_state", "finished", "exit_status", 0L), row.get("n", "attributes"));
        assertEquals(Map.of(), row.get("n", "extras"));
    }

    @Test
    void jsonPathsDecodeToPlainJavaValues() {
        Row row = node(
                5,
                Projection.of("attributes.cell"),
                Projection.of("attributes.kinds.0.name"),
                Projection.of("attributes.pbc1"),
                Projection.of("attributes.missing"));
        assertEquals(List.of(List.of(11.0, 0.0, 0.0), List.of(0.0, 11.0, 0.0), List.of(0.0, 0.0, 11.0)), row.get(0));
        assertEquals("Ba", row.get(1));
        assertEquals(true, row.get(2));
        assertNull(row.get(3));
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("c", "x");
        assertEquals(
                List.of(1L, 2L, c), node(7, Projection.of("attributes.a.b")).get(0));
    }

    @Test
    void castsReadOtherJsonTypesAsNull() {
        assertEquals(1.0, value(1, "attributes.value", Cast.FLOAT));
        assertNull(value(3, "attributes.value", Cast.FLOAT));
        assertEquals(3L, value(2, "attributes.value", Cast.INTEGER));
        assertNull(value(4, "attributes.value", Cast.INTEGER));
        assertEquals("10", value(3, "attributes.value", Cast.TEXT));
        assertEquals("1", value(1, "attributes.value", Cast.TEXT));
        assertEquals("true", value(4, "attributes.value", Cast.TEXT));
        assertNull(value(5, "attributes.cell", Cast.TEXT));
        assertEquals(true, value(4, "attributes.value", Cast.BOOLEAN));
        assertNull(value(1, "attributes.value", Cast.BOOLEAN));
        assertEquals(
                OffsetDateTime.parse("2024-05-01T12:00:00Z").toInstant(),
                ((OffsetDateTime) value(7, "attributes.when", Cast.DATE)).toInstant());
        assertEquals(2.5, value(2, "attributes.value", Cast.JSON));
    }

    @Test
    void starIsTheWholeRowAsARecord() {
        NodeRecord d1 = (NodeRecord) node(D1, Projection.of("*")).get(0);
        assertEquals(D1, d1.id());
        assertEquals("data.core.int.Int.", d1.nodeType());
        assertEquals(Map.of("value", 1L), d1.attributes());
        assertEquals(Map.of("tag", "a", "n", 5L), d1.extras());
        assertEquals(Map.of(), d1.repositoryMetadata());
        assertEquals(QueryFixture.U1, d1.userId());
        assertNull(d1.computerId());
        // the default projection of a query that projects nothing
        assertInstanceOf(
                NodeRecord.class,
                GraphQuery.on(
                                database,
                                QueryBuilder.start()
                                        .node(
                                                "n",
                                                v -> v.where(Filter.field("id").eq(D1)))
                                        .build())
                        .one()
                        .get(0));
        assertEquals(
                "localhost",
                ((EntityRow.Computer) GraphQuery.on(
                                        database,
                                        QueryBuilder.start()
                                                .computer("c", v -> v.project("*"))
                                                .build())
                                .one()
                                .get(0))
                        .label());
        assertEquals(
                "bob@example.com",
                ((EntityRow.User) GraphQuery.on(
                                        database,
                                        QueryBuilder.start()
                                                .user(
                                                        "u",
                                                        v -> v.where(Filter.field("id")
                                                                        .eq(2))
                                                                .project("*"))
                                                .build())
                                .one()
                                .get(0))
                        .email());
        assertEquals(
                "looks right",
                ((EntityRow.Comment) GraphQuery.on(
                                        database,
                                        QueryBuilder.start()
                                                .comment("c", v -> v.project("*"))
                                                .build())
                                .one()
                                .get(0))
                        .content());
        assertEquals(
                "adding",
                ((EntityRow.Log) GraphQuery.on(
                                        database,
                                        QueryBuilder.start()
                                                .log("l", v -> v.project("*"))
                                                .build())
                                .one()
                                .get(0))
                        .message());
    }

    @Test
    void countPerNodeTypeIsGroupedInTheDatabase() {
        List<Row> rows = GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node(
                                        "n",
                                        v -> v.type("data.")
                                                .project(Projection.of("node_type"), Projection.count("id")))
                                .orderBy(Order.asc("n", "node_type"))
                                .build())
                .all();
        Map<Object, Object> counts = new LinkedHashMap<>();
        rows.forEach(r -> counts.put(r.get("n", "node_type"), r.get("n", "count(id)")));
        assertEquals(
                List.of(
                        "data.core.bool.Bool.",
                        "data.core.dict.Dict.",
                        "data.core.float.Float.",
                        "data.core.int.Int.",
                        "data.core.str.Str.",
                        "data.core.structure.StructureData."),
                List.copyOf(counts.keySet()));
        assertEquals(4L, counts.get("data.core.int.Int."));
        assertEquals(2L, counts.get("data.core.structure.StructureData."));
    }

    @Test
    void sumAvgMinMaxOfCastJsonAndColumns() {
        Row row = GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node(
                                        "n",
                                        v -> v.exactType("data.core.int.Int.")
                                                .project(
                                                        Projection.aggregate(Aggregate.SUM, "attributes.value")
                                                                .as(Cast.INTEGER),
                                                        Projection.aggregate(Aggregate.AVG, "attributes.value")
                                                                .as(Cast.FLOAT),
                                                        Projection.aggregate(Aggregate.MIN, "attributes.value")
                                                                .as(Cast.FLOAT),
                                                        Projection.aggregate(Aggregate.MAX, "id"),
                                                        Projection.aggregate(Aggregate.MIN, "ctime"),
                                                        Projection.count("attributes.value")))
                                .build())
                .one();
        assertEquals(15L, row.get(0));
        assertEquals(3.75, row.get(1));
        assertEquals(1.0, row.get(2));
        assertEquals(12L, row.get(3));
        assertEquals(OffsetDateTime.parse("2024-01-01T01:00Z").toInstant(), ((OffsetDateTime) row.get(4)).toInstant());
        assertEquals(4L, row.get("n", "count(attributes.value)"));
    }

    @Test
    void edgeAndVertexAggregatesTogether() {
        // inputs per link label into calc1
        List<Row> rows = GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node("c", v -> v.where(Filter.field("id").eq(8)))
                                .node(
                                        "i",
                                        v -> v.withOutgoing("c")
                                                .project(Projection.count("id"))
                                                .edgeProject("type"))
                                .build())
                .all();
        Map<Object, Object> perType = new LinkedHashMap<>();
        rows.forEach(r -> perType.put(r.get("c--i", "type"), r.get("i", "count(id)")));
        assertEquals(Map.of("input_calc", 2L, "call_calc", 1L), perType);
    }
}
