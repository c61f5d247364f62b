package dev.cairn.storage.query;

import static dev.cairn.storage.query.QueryFixture.assertCopyReadsAsCursor;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyOut;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.testing.TestDatabase;

/**
 * {@link GraphQuery#stream()} reads through {@code COPY (…) TO STDOUT (FORMAT binary)} with the
 * query's values written in as literals: the same rows as a cursor with them bound, whatever the
 * values hold, and a COPY left part way leaves its connection ready for the next statement.
 */
class CopyReadIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    /** Values a user may filter on that SQL, the driver's placeholders or a quoting bug could misread. */
    static final List<String> AWKWARD = List.of(
            "O'Brien",
            "''",
            "back\\slash",
            "\\'",
            "what?",
            "a ?? b",
            "$1",
            "'; DROP TABLE node; --",
            "E'\\x41'",
            "\"quoted\"",
            "ünïcödé 日本 \uD83D\uDE00",
            "line\nbreak\ttab");

    static Database database;

    @BeforeAll
    static void fixture() throws SQLException {
        database = QueryFixture.open(db);
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(
                        "INSERT INTO node (id, uuid, node_type, label, description, ctime, mtime, user_id, attributes, extras)"
                                + " OVERRIDING SYSTEM VALUE VALUES (?, gen_random_uuid(), 'data.awkward.', ?, '', now(), now(), 1,"
                                + " jsonb_build_object(?::text, ?::text, 'n', ?::int), '{}')")) {
            for (int i = 0; i < AWKWARD.size(); i++) {
                s.setLong(1, 100 + i);
                s.setString(2, AWKWARD.get(i));
                s.setString(3, AWKWARD.get(i));
                s.setString(4, AWKWARD.get(i));
                s.setInt(5, i);
                s.addBatch();
            }
            s.executeBatch();
        }
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private static boolean copies(QuerySpec spec) {
        return new RowReader(SqlCompiler.plan(spec, false).outputs(), false).copyColumns() != null;
    }

    @Test
    void everyKindOfColumnReadsAsThroughACursor() {
        List<QuerySpec> specs = List.of(
                QueryBuilder.start()
                        .node(
                                "n",
                                v -> v.project(
                                        Projection.of("*"),
                                        Projection.of("attributes.value"),
                                        Projection.of("attributes.value", Cast.FLOAT),
                                        Projection.of("attributes.value", Cast.INTEGER),
                                        Projection.of("attributes.value", Cast.TEXT),
                                        Projection.of("attributes.value", Cast.BOOLEAN),
                                        Projection.of("attributes.when", Cast.DATE),
                                        Projection.of("attributes.cell"),
                                        Projection.of("attributes.missing"),
                                        Projection.of("uuid"),
                                        Projection.of("ctime"),
                                        Projection.of("hash")))
                        .build(),
                QueryBuilder.start()
                        .node("c", v -> v.where(Filter.field("id").eq(8)).project("id"))
                        .node(
                                "i",
                                v -> v.withOutgoing("c").project("id", "label").edgeProject("*"))
                        .build(),
                QueryBuilder.start().group("g", v -> v.project("*")).build(),
                QueryBuilder.start().computer("c", v -> v.project("*")).build(),
                QueryBuilder.start().user("u", v -> v.project("*")).build(),
                QueryBuilder.start().comment("c", v -> v.project("*")).build(),
                QueryBuilder.start().log("l", v -> v.project("*")).build(),
                QueryBuilder.start()
                        .node("n", v -> v.type("data.").project("id", "label"))
                        .orderBy(Order.desc("n", "label"))
                        .limit(5)
                        .offset(2)
                        .build(),
                QueryBuilder.start()
                        .node("n", v -> v.project("id", "node_type"))
                        .orderBy(Order.asc("n", "id"))
                        .after(4)
                        .build(),
                QueryBuilder.start()
                        .node("d", v -> v.where(Filter.field("id").eq(1)))
                        .node("n", v -> v.withAncestors("d").project("id"))
                        .build());
        for (QuerySpec spec : specs) {
            assertTrue(copies(spec), () -> "read through a COPY: " + spec);
            assertCopyReadsAsCursor(GraphQuery.on(database, spec));
        }
    }

    @Test
    void valuesAreWrittenInAsThemselvesWhatEverTheyHold() {
        for (int i = 0; i < AWKWARD.size(); i++) {
            String value = AWKWARD.get(i);
            long id = 100 + i;
            List<Filter> filters = new ArrayList<>(List.of(
                    Filter.field("label").eq(value),
                    Filter.field("label").in(List.of(value, "no such label")),
                    Filter.field("attributes." + value).eq(value)));
            if (!value.contains("\\")) {
                // LIKE reads a backslash as its escape, and _ and % (in none of these values) as wildcards
                filters.add(Filter.field("label").like(value));
            }
            for (Filter filter : filters) {
                GraphQuery query = GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node(
                                        "n",
                                        v -> v.where(filter)
                                                .project(Projection.of("id"), Projection.of("attributes." + value)))
                                .build());
                List<Row> rows;
                try (Stream<Row> stream = query.stream()) {
                    rows = stream.toList();
                }
                assertEquals(1, rows.size(), () -> filter + " matched " + rows.size() + " nodes");
                assertEquals(id, rows.getFirst().get(0), filter::toString);
                assertEquals(value, rows.getFirst().get(1), filter::toString);
                assertCopyReadsAsCursor(query);
            }
        }
        try (Connection c = database.connection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM node")) {
            rs.next();
            assertEquals(13 + AWKWARD.size(), rs.getLong(1), "no value ran as SQL");
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aNulInAValueIsTheQuerysFaultOnEitherPath() {
        GraphQuery query = GraphQuery.on(
                database,
                QueryBuilder.start()
                        .node(
                                "n",
                                v -> v.where(Filter.field("label").eq("a\u0000b"))
                                        .project("id"))
                        .build());
        InvalidQueryException copied = assertThrows(InvalidQueryException.class, () -> {
            try (Stream<Row> rows = query.stream()) {
                rows.toList();
            }
        });
        assertTrue(copied.getMessage().contains("refused a value"), copied.getMessage());
        assertThrows(InvalidQueryException.class, query::all);
    }

    @Test
    void aggregatesOfNumericTypeReadThroughACursor() {
        QuerySpec spec = QueryBuilder.start()
                .node(
                        "n",
                        v -> v.exactType("data.core.int.Int.")
                                .project(Projection.aggregate(Aggregate.SUM, "attributes.value")
                                        .as(Cast.INTEGER)))
                .build();
        assertEquals(false, copies(spec));
        try (Stream<Row> rows = GraphQuery.on(database, spec).stream()) {
            assertEquals(15L, rows.toList().getFirst().get(0));
        }
    }

    @Test
    void rowsSplitAcrossMessagesReadAsWhole() throws SQLException, IOException {
        QuerySpec spec = QueryBuilder.start()
                .node("n", v -> v.project(Projection.of("*"), Projection.of("attributes.value", Cast.FLOAT)))
                .build();
        SqlCompiler.Plan plan = SqlCompiler.plan(spec, true);
        ValueReader[] columns = new RowReader(plan.outputs(), true).copyColumns();
        assertNotNull(columns);
        try (Connection c = database.connection()) {
            PGConnection pg = c.unwrap(PGConnection.class);
            String statement = CopyCells.statement(InlinedSql.of(plan.query(), pg), columns);
            List<Object[]> whole = cells(new CopyCells(pg, pg.getCopyAPI().copyOut(statement), columns));
            assertEquals(13 + AWKWARD.size(), whole.size());
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            pg.getCopyAPI().copyOut(statement, bytes);
            for (int chunk : new int[] {1, 2, 3, 7, 64, 1000}) {
                List<Object[]> split = cells(new CopyCells(pg, new Chunks(bytes.toByteArray(), chunk), columns));
                assertArrayEquals(whole.toArray(), split.toArray(), "in chunks of " + chunk + " bytes");
            }
        }
    }

    private static List<Object[]> cells(CopyCells source) throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        for (Object[] row = source.next(); row != null; row = source.next()) {
            rows.add(row);
        }
        source.close();
        return rows;
    }

    @Test
    void aCopyLeftPartWayLeavesItsConnectionReadyForTheNext() throws SQLException {
        // enough rows (20,000 of 2 KB) that PostgreSQL is still writing them when the reader stops
        try (Connection c = database.connection();
                Statement s = c.createStatement()) {
            s.execute(
                    "INSERT INTO node (id, uuid, node_type, label, description, ctime, mtime, user_id, attributes, extras)"
                            + " OVERRIDING SYSTEM VALUE SELECT 1000 + i, gen_random_uuid(), 'data.bulk.', 'bulk', '', now(), now(), 1,"
                            + " jsonb_build_object('text', repeat(md5(i::text), 64)), '{}' FROM generate_series(1, 20000) AS i");
        }
        QuerySpec bulk = QueryBuilder.start()
                .node("n", v -> v.type("data.bulk.").project("id", "attributes.text"))
                .build();
        QuerySpec small = QueryBuilder.start()
                .node("n", v -> v.where(Filter.field("label").eq("O'Brien")).project("id"))
                .build();
        try (Connection connection = db.connect()) {
            DataSource one = oneConnection(connection);
            for (int round = 0; round < 20; round++) {
                try (Stream<Row> rows = GraphQuery.on(one, bulk).withJsonAsText().stream()) {
                    Iterator<Row> it = rows.iterator();
                    assertTrue(it.hasNext());
                    it.next();
                    if (round == 0) {
                        assertEquals(1, copiesRunning(), "the stream reads through a COPY");
                    }
                }
                assertEquals(0, copiesRunning(), "the COPY ended when its stream was closed");
                // the same connection, straight after: neither the rest of the COPY nor its cancel reaches it
                try (Stream<Row> rows = GraphQuery.on(one, small).stream()) {
                    assertEquals(List.of(100L), rows.map(r -> r.get(0)).toList());
                }
            }
        } finally {
            try (Connection c = database.connection();
                    Statement s = c.createStatement()) {
                s.execute("DELETE FROM node WHERE node_type = 'data.bulk.'");
            }
        }
    }

    /** A data source that hands out {@code connection} every time, never closed by its users. */
    private static DataSource oneConnection(Connection connection) {
        Connection kept = (Connection) Proxy.newProxyInstance(
                Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if (method.getName().equals("close")) {
                        return null;
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        return (DataSource) Proxy.newProxyInstance(
                DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getConnection")) {
                        return kept;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    private static long copiesRunning() {
        try (Connection c = db.connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE state = 'active' AND query LIKE 'COPY (SELECT %'")) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    /** The bytes of a real COPY handed over in messages of {@code size} bytes, where PostgreSQL sends one a row. */
    private static final class Chunks implements CopyOut {
        private final byte[] bytes;
        private final int size;
        private int at;
        private boolean active = true;

        Chunks(byte[] bytes, int size) {
            this.bytes = bytes;
            this.size = size;
        }

        @Override
        public byte[] readFromCopy() {
            if (at == bytes.length) {
                active = false;
                return null;
            }
            byte[] chunk = Arrays.copyOfRange(bytes, at, Math.min(bytes.length, at + size));
            at += chunk.length;
            return chunk;
        }

        @Override
        public byte[] readFromCopy(boolean block) {
            return readFromCopy();
        }

        @Override
        public int getFieldCount() {
            return 0;
        }

        @Override
        public int getFormat() {
            return 1;
        }

        @Override
        public int getFieldFormat(int field) {
            return 1;
        }

        @Override
        public boolean isActive() {
            return active;
        }

        @Override
        public void cancelCopy() {
            active = false;
        }

        @Override
        public long getHandledRowCount() {
            return -1;
        }
    }
}
