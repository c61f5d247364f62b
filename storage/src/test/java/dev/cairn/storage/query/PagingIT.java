package dev.cairn.storage.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.testing.TestDatabase;

/** Order, limit, offset, distinct, keyset paging, streaming, count, first/one and EXPLAIN. */
class PagingIT {

    static final int EXTRA = 2_500;

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;

    @BeforeAll
    static void fixture() throws SQLException {
        database = QueryFixture.open(db);
        try (Connection c = database.connection();
                Statement s = c.createStatement()) {
            s.execute(
                    "INSERT INTO node (id, uuid, node_type, ctime, mtime, user_id, attributes) OVERRIDING SYSTEM VALUE"
                            + " SELECT 1000 + i, gen_random_uuid(), 'data.core.int.Int.', now(), now(), 1, jsonb_build_object('value', i)"
                            + " FROM generate_series(1, " + EXTRA + ") AS i");
        }
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private static QueryBuilder fixtureNodes() {
        return QueryBuilder.start()
                .node("n", v -> v.where(Filter.field("id").lt(1000)).project("id"));
    }

    @Test
    void orderLimitOffset() {
        assertEquals(
                List.of(11L, 10L, 9L),
                QueryFixture.idList(GraphQuery.on(
                        database,
                        fixtureNodes()
                                .orderBy(Order.desc("n", "id"))
                                .limit(3)
                                .offset(2)
                                .build())));
    }

    @Test
    void orderByJsonPathWithAndWithoutCast() {
        QueryBuilder ints = QueryBuilder.start()
                .node(
                        "n",
                        v -> v.exactType("data.core.int.Int.")
                                .where(Filter.field("id").lt(1000))
                                .project("id"));
        assertEquals(
                List.of(12L, 10L, 9L, 1L),
                QueryFixture.idList(GraphQuery.on(
                        database,
                        ints.orderBy(Order.desc("n", "attributes.value").as(Cast.FLOAT))
                                .build())));
        // jsonb order: strings < numbers < booleans
        assertEquals(
                List.of(3L, 1L, 2L, 4L),
                QueryFixture.idList(GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node(
                                        "n",
                                        v -> v.where(Filter.field("id").in(1, 2, 3, 4))
                                                .project("id"))
                                .orderBy(Order.asc("n", "attributes.value"))
                                .build())));
    }

    @Test
    void distinctRows() {
        List<Row> types = GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node("n", v -> v.project("node_type"))
                                .distinct()
                                .orderBy(Order.asc("n", "node_type"))
                                .build())
                .all();
        assertEquals(9, types.size(), types::toString);
        assertEquals("data.core.bool.Bool.", types.getFirst().get(0));
    }

    @Test
    void keysetPagesCoverEveryRowOnceInBothDirections() {
        for (boolean descending : List.of(false, true)) {
            List<Long> seen = new ArrayList<>();
            Long last = null;
            while (true) {
                QueryBuilder page = fixtureNodes()
                        .orderBy(descending ? Order.desc("n", "id") : Order.asc("n", "id"))
                        .limit(4);
                if (last != null) {
                    page.after(last);
                }
                List<Long> ids = QueryFixture.idList(GraphQuery.on(database, page.build()));
                if (ids.isEmpty()) {
                    break;
                }
                seen.addAll(ids);
                last = ids.getLast();
            }
            List<Long> expected = LongStream.rangeClosed(1, 13).boxed().toList();
            assertEquals(descending ? expected.reversed() : expected, seen);
        }
    }

    private static QueryBuilder inputsOfCalc1() {
        return QueryBuilder.start()
                .node("c", v -> v.where(Filter.field("id").eq(QueryFixture.CALC1)))
                .node("n", v -> v.withOutgoing("c").project("id"));
    }

    @Test
    void ordersAndPagesByTheLinkToAVertex() {
        // calc1's incoming links, in the order written: d1 (x), d2 (y), then wf (c1, a call)
        assertEquals(
                List.of(QueryFixture.WF, QueryFixture.D1, QueryFixture.D2),
                QueryFixture.idList(GraphQuery.on(
                        database,
                        inputsOfCalc1().orderBy(Order.asc("c--n", "label")).build())));
        assertEquals(
                List.of(QueryFixture.WF, QueryFixture.D2, QueryFixture.D1),
                QueryFixture.idList(GraphQuery.on(
                        database,
                        inputsOfCalc1().orderBy(Order.desc("c--n", "id")).build())));
        List<Row> links = GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node("c", v -> v.where(Filter.field("id").eq(QueryFixture.CALC1)))
                                .node(
                                        "n",
                                        v -> v.withOutgoing("c").project("id").edgeProject("id"))
                                .orderBy(Order.asc("c--n", "id"))
                                .build())
                .all();
        long secondLink = (Long) links.get(1).get("c--n", "id");
        assertEquals(
                List.of(QueryFixture.WF),
                QueryFixture.idList(GraphQuery.on(
                        database,
                        inputsOfCalc1()
                                .orderBy(Order.asc("c--n", "id"))
                                .after(secondLink)
                                .build())));
        InvalidQueryException unknown = assertThrows(
                InvalidQueryException.class,
                () -> inputsOfCalc1().orderBy(Order.asc("x--n", "id")).build());
        assertTrue(unknown.getMessage().contains("edges [c--n]"), unknown.getMessage());
    }

    @Test
    void streamingReadsMoreRowsThanTheFetchSizeAndGivesTheConnectionBack() throws SQLException {
        HikariDataSource pool = database.dataSource().unwrap(HikariDataSource.class);
        GraphQuery query = GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node(
                                        "n",
                                        v -> v.exactType("data.core.int.Int.").project("id", "attributes.value"))
                                .orderBy(Order.asc("n", "id"))
                                .build())
                .withFetchSize(100);
        long rows = 0;
        long sum = 0;
        try (Stream<Row> stream = query.stream()) {
            Iterator<Row> it = stream.iterator();
            while (it.hasNext()) {
                Row row = it.next();
                if (rows == 0) {
                    assertEquals(
                            1, pool.getHikariPoolMXBean().getActiveConnections(), "the cursor holds its connection");
                }
                rows++;
                if ((Long) row.get(0) > 1000) {
                    sum += (Long) row.get(1);
                }
            }
        }
        assertEquals(4 + EXTRA, rows);
        assertEquals((long) EXTRA * (EXTRA + 1) / 2, sum);
        assertEquals(
                0, pool.getHikariPoolMXBean().getActiveConnections(), "closing the stream gives the connection back");
        // a cursor closed half way gives it back too
        try (ResultStream cursor = query.cursor()) {
            for (int i = 0; i < 150; i++) {
                cursor.next();
            }
        }
        assertEquals(0, pool.getHikariPoolMXBean().getActiveConnections());
    }

    @Test
    void countIsComputedInTheDatabase() {
        assertEquals(
                13 + EXTRA,
                GraphQuery.on(
                                database,
                                QueryBuilder.start()
                                        .node("n", v -> v.project("id"))
                                        .build())
                        .count());
        assertEquals(3, GraphQuery.on(database, fixtureNodes().limit(3).build()).count());
        assertEquals(
                9,
                GraphQuery.on(
                                database,
                                QueryBuilder.start()
                                        .node("n", v -> v.project("node_type"))
                                        .distinct()
                                        .build())
                        .count());
    }

    @Test
    void firstAndOne() {
        assertEquals(
                13L,
                GraphQuery.on(
                                database,
                                fixtureNodes().orderBy(Order.desc("n", "id")).build())
                        .first()
                        .orElseThrow()
                        .get(0));
        assertTrue(GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node(
                                        "n",
                                        v -> v.where(Filter.field("id").eq(-1)).project("id"))
                                .build())
                .first()
                .isEmpty());
        NotFoundException none = assertThrows(
                NotFoundException.class,
                () -> GraphQuery.on(
                                database,
                                QueryBuilder.start()
                                        .node(
                                                "n",
                                                v -> v.where(Filter.field("id").eq(-1)))
                                        .build())
                        .one());
        assertTrue(none.getMessage().contains("none"), none.getMessage());
        ConflictException many = assertThrows(
                ConflictException.class,
                () -> GraphQuery.on(database, fixtureNodes().build()).one());
        assertTrue(many.getMessage().contains("more than one"), many.getMessage());
    }

    @Test
    void explainShowsThePlanWithBoundValues() {
        GraphQuery query = GraphQuery.on(
                database,
                QueryBuilder.start()
                        .node(
                                "s",
                                v -> v.type("data.core.structure.StructureData.")
                                        .where(Filter.field("attributes.sites").longer(32))
                                        .project("id"))
                        .build());
        String plan = query.explain(true);
        assertTrue(plan.contains("actual time"), plan);
        assertTrue(plan.contains("'sites'::text"), plan);
    }
}
