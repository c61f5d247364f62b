package dev.cairn.storage.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.GraphFixtures;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.testing.TestDatabase;

/** A query read by several cursors at once returns exactly the rows of one cursor, as of one moment. */
class ParallelStreamIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;
    static GraphStore graph;

    @BeforeAll
    static void fill() throws Exception {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()).withPoolSize(8));
        long user = GraphFixtures.user(database, "p@example.com");
        graph = new GraphStore(database, null, user);
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            DictData d = new DictData(Map.of("i", i, "tags", List.of("t" + i % 7, "x")));
            CalcFunctionNode calc = new CalcFunctionNode("cairn.use");
            calc.addIncoming(d, LinkType.INPUT_CALC, "d");
            nodes.add(d);
            nodes.add(calc);
        }
        graph.storeAll(nodes);
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private static List<String> sorted(Stream<Row> rows) {
        try (rows) {
            return rows.map(r -> r.values().toString()).sorted().toList();
        }
    }

    @Test
    void partsTogetherReturnTheRowsOfOneCursor() {
        QuerySpec spec = QueryBuilder.start()
                .node(
                        "d",
                        v -> v.exactType(DictData.TYPE)
                                .where(Filter.field("attributes.i").lt(2500))
                                .project("id", "attributes.tags"))
                .node("c", v -> v.withIncoming("d").project("id"))
                .build();
        List<String> one = sorted(GraphQuery.on(database, spec).stream());
        assertEquals(2500, one.size());
        for (int ways : new int[] {2, 3, 7}) {
            assertEquals(one, sorted(GraphQuery.on(database, spec).parallelStream(ways)), "ways " + ways);
        }
    }

    @Test
    void rowsOfJsonAreReadAheadInTheirOrderAndAStreamClosedHalfWayEndsItsReaderAndGivesItsConnectionBack()
            throws Exception {
        QuerySpec spec = QueryBuilder.start()
                .node("d", v -> v.exactType(DictData.TYPE).project("id", "attributes.tags", "attributes"))
                .orderBy(Order.desc("d", "id"))
                .build();
        List<Object> ids =
                GraphQuery.on(database, spec).all().stream().map(r -> r.get(0)).toList();
        for (GraphQuery query : List.of(
                GraphQuery.on(database, spec).withFetchSize(7),
                GraphQuery.on(database, spec).withJsonAsText())) {
            try (Stream<Row> rows = query.stream()) {
                assertEquals(ids, rows.map(r -> r.get(0)).toList());
            }
        }
        HikariDataSource pool = database.dataSource().unwrap(HikariDataSource.class);
        try (Stream<Row> rows = GraphQuery.on(database, spec).withFetchSize(50).stream()) {
            var it = rows.iterator();
            for (int i = 0; i < 700; i++) {
                assertEquals(ids.get(i), it.next().get(0));
            }
            assertTrue(readersAlive() > 0, "the rows are read on a thread of their own");
        }
        assertEquals(0, readersAlive(), "closing the stream ends its reader");
        assertEquals(0, pool.getHikariPoolMXBean().getActiveConnections(), "and gives the connection back");
    }

    @Test
    void aReaderThatDiesOfAnErrorFailsTheStreamInsteadOfLeavingItWaiting() throws Exception {
        SqlCompiler.Plan plan = SqlCompiler.plan(QueryBuilder.start()
                .node("d", v -> v.exactType(DictData.TYPE).project("id", "attributes.tags"))
                .build());
        Connection c = database.connection();
        PreparedStatement s = c.prepareStatement(plan.query().sql());
        List<Object> parameters = plan.query().parameters();
        for (int i = 0; i < parameters.size(); i++) {
            s.setObject(i + 1, parameters.get(i));
        }
        ResultSet real = s.executeQuery();
        AtomicInteger read = new AtomicInteger();
        // the database's rows, until the 1,001st, where the reading thread meets an Error instead
        ResultSet dying = (ResultSet) Proxy.newProxyInstance(
                ResultSet.class.getClassLoader(), new Class<?>[] {ResultSet.class}, (proxy, method, args) -> {
                    if (method.getName().equals("next") && read.incrementAndGet() > 1000) {
                        throw new OutOfMemoryError("the reader is out of memory");
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        RowReader reader = new RowReader(plan.outputs(), false);
        ResultStream cursor = new ResultStream(c, new CursorCells(s, dying, reader), reader, null);
        try (ParallelRows rows = ParallelRows.readAhead(cursor)) {
            OutOfMemoryError e = assertTimeoutPreemptively(
                    Duration.ofSeconds(30),
                    () -> assertThrows(OutOfMemoryError.class, () -> rows.forEachRemaining(r -> {})));
            assertEquals("the reader is out of memory", e.getMessage());
        }
        assertTrue(c.isClosed(), "the stream gave its connection back");
    }

    private static long readersAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("cairn-query-part") && t.isAlive())
                .count();
    }

    @Test
    void theyReadOneSnapshotWhileOthersWrite() {
        QuerySpec spec = QueryBuilder.start()
                .node("n", v -> v.exactType(IntData.TYPE).project("id"))
                .build();
        graph.storeAll(List.of(new IntData(1), new IntData(2)));
        long before = GraphQuery.on(database, spec).count();
        long seen = 0;
        try (Stream<Row> rows = GraphQuery.on(database, spec).withFetchSize(1).parallelStream(2)) {
            var it = rows.iterator();
            assertTrue(it.hasNext());
            it.next();
            seen++;
            graph.storeAll(List.of(new IntData(3), new IntData(4), new IntData(5)));
            while (it.hasNext()) {
                it.next();
                seen++;
            }
        }
        assertEquals(before, seen, "rows stored after the query began are not in it");
        assertEquals(before + 3, GraphQuery.on(database, spec).count());
    }

    @Test
    void orderedOrAggregatedQueriesRunAsOneCursor() {
        QuerySpec ordered = QueryBuilder.start()
                .node("d", v -> v.exactType(DictData.TYPE).project("id"))
                .orderBy(Order.desc("d", "id"))
                .limit(5)
                .build();
        List<Object> ids = new ArrayList<>();
        try (Stream<Row> rows = GraphQuery.on(database, ordered).parallelStream(4)) {
            rows.forEach(r -> ids.add(r.get(0)));
        }
        assertEquals(
                GraphQuery.on(database, ordered).all().stream()
                        .map(r -> r.get(0))
                        .toList(),
                ids);
    }
}
