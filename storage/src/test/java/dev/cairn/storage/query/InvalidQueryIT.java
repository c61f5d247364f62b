package dev.cairn.storage.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import java.util.stream.Stream;
import javax.sql.DataSource;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.testing.TestDatabase;

/**
 * Bad queries are refused with a message that names the problem and the valid choices, before
 * any SQL exists: the data source is never asked for a connection.
 */
class InvalidQueryIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;
    static CountingDataSource counting;

    @BeforeAll
    static void fixture() throws SQLException {
        database = QueryFixture.open(db);
        counting = new CountingDataSource(database.dataSource());
    }

    @AfterAll
    static void close() {
        database.close();
    }

    /** Runs the JSON query; asserts it is refused with all the fragments in its message and no connection taken. */
    private static void refused(String json, String... fragments) {
        int before = counting.connections.get();
        InvalidQueryException e = assertThrows(
                InvalidQueryException.class,
                () -> GraphQuery.on(counting, QuerySpec.fromJson(json)).all());
        for (String fragment : fragments) {
            assertTrue(e.getMessage().contains(fragment), () -> "'" + fragment + "' not in: " + e.getMessage());
        }
        assertEquals(before, counting.connections.get(), "no SQL may run for an invalid query");
    }

    private static String node(String vertexJson) {
        return "{\"path\": [{\"tag\": \"a\", \"entity\": \"node\"}, " + vertexJson + "]}";
    }

    @Test
    void theValidQueryRunsThroughTheSameDataSource() {
        int before = counting.connections.get();
        assertEquals(
                13,
                GraphQuery.on(
                                counting,
                                QuerySpec.fromJson(
                                        "{\"path\": [{\"tag\": \"a\", \"entity\": \"node\", \"project\": [\"id\"]}]}"))
                        .all()
                        .size());
        assertEquals(before + 1, counting.connections.get());
    }

    @Test
    void aValueTheDatabaseRefusesAtARowPartWayIsStillTheQuerysFault() {
        try (ResultStream rows = datesOfThreeNodes().cursor()) {
            InvalidQueryException e = assertThrows(InvalidQueryException.class, rows::next);
            assertTrue(e.getMessage().contains("\"10\""), e.getMessage());
        }
    }

    @Test
    void aValueRefusedPartWayReachesTheReaderThroughTheReadAheadThread() {
        // rows that hold JSON are read on a thread of their own: the refusal must come out of the stream all the same
        try (Stream<Row> rows = datesOfThreeNodes(Projection.of("attributes")).stream()) {
            InvalidQueryException e = assertThrows(
                    InvalidQueryException.class, () -> rows.iterator().forEachRemaining(r -> {}));
            assertTrue(e.getMessage().contains("\"10\""), e.getMessage());
        }
    }

    /**
     * Nodes 1 to 3's values read as dates, one row per fetch: the cursor opens on row 1 (a number: no
     * date, null) and meets "10" while reading. No order: a sort would read every row before the first.
     */
    private static GraphQuery datesOfThreeNodes(Projection... first) {
        return GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node(
                                        "n",
                                        v -> v.where(Filter.field("id").in(1, 2, 3))
                                                .project(first)
                                                .project(Projection.of("attributes.value", Cast.DATE)))
                                .build())
                .withFetchSize(1);
    }

    @Test
    void unknownFieldListsTheFields() {
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"filters\": {\"attribtes.x\": 1}}"),
                "vertex 'b' filters",
                "unknown field 'attribtes.x' of node",
                "[id, uuid, node_type",
                "attributes, extras");
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"project\": [\"mass\"]}"),
                "vertex 'b' project 'mass'",
                "unknown field 'mass'",
                "[id, uuid");
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"project\": [\"label.x\"]}"),
                "column label is not JSON",
                "[attributes, extras, repository_metadata]");
        refused(
                "{\"path\": [{\"tag\": \"g\", \"entity\": \"group\", \"filters\": {\"node_type\": \"x\"}}]}",
                "unknown field 'node_type' of group",
                "type_string");
    }

    @Test
    void unknownOperatorListsTheOperators() {
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"filters\": {\"id\": {\"greater\": 1}}}"),
                "unknown operator 'greater'",
                "[==, >, <, >=, <=, in, like, ilike, has_key, contains, of_length");
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"filters\": {\"id\": {\"like\": \"1%\"}}}"),
                "operator 'like' does not apply to long column id",
                "[==, >, <, >=, <=, in]");
    }

    @Test
    void unknownOrDisallowedRelationshipListsTheAllowedOnes() {
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"with_parent\": \"a\"}"),
                "unknown key 'with_parent'",
                "with_incoming",
                "with_ancestors");
        refused(
                node("{\"tag\": \"b\", \"entity\": \"group\", \"with_incoming\": \"a\"}"),
                "a group cannot use with_incoming",
                "[with_node (a node), with_user (a user)]");
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"with_computer\": \"a\"}"),
                "with_computer 'a' needs a computer, but 'a' is a node");
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"with_incoming\": \"a\", \"max_depth\": 2}"),
                "max_depth 2 applies to with_ancestors and with_descendants only");
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"with_ancestors\": \"a\", \"link_types\": [\"calls\"]}"),
                "unknown link type 'calls'",
                "[create, return, input_calc, input_work, call_calc, call_work]");
    }

    @Test
    void unknownTagListsTheTags() {
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"with_incoming\": \"zz\"}"),
                "unknown tag 'zz'",
                "earlier tags are [a]");
        refused(
                "{\"path\": [{\"tag\": \"a\", \"entity\": \"node\", \"project\": [\"id\"]}],"
                        + " \"order_by\": [{\"tag\": \"q\", \"field\": \"id\"}]}",
                "order_by[0]",
                "unknown tag 'q'",
                "[a]");
        refused(node("{\"tag\": \"a\", \"entity\": \"node\"}"), "tag 'a' is used twice");
        refused("{\"path\": [{\"entity\": \"node\"}]}", "path[0]", "tag is missing");
    }

    @Test
    void badCastsAndAggregates() {
        refused(
                node(
                        "{\"tag\": \"b\", \"entity\": \"node\", \"project\": [{\"field\": \"attributes.x\", \"cast\": \"float\"}]}"),
                "unknown cast 'float'",
                "[f, i, t, b, d, j]");
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"project\": [{\"field\": \"id\", \"cast\": \"f\"}]}"),
                "cast 'f' applies to JSON values only");
        refused(
                node(
                        "{\"tag\": \"b\", \"entity\": \"node\", \"project\": [{\"field\": \"label\", \"func\": \"sum\"}]}"),
                "sum needs numbers");
        refused(
                node(
                        "{\"tag\": \"b\", \"entity\": \"node\", \"project\": [{\"field\": \"id\", \"func\": \"median\"}]}"),
                "unknown aggregate function 'median'",
                "[count, min, max, sum, avg]");
    }

    @Test
    void valuesOfTheWrongShape() {
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"filters\": {\"id\": {\"in\": 5}}}"),
                "on 'id' 'in'",
                "needs a non-empty list, got 5");
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"filters\": {\"id\": \"five\"}}"),
                "needs an integer, got 'five'");
        refused(
                node(
                        "{\"tag\": \"b\", \"entity\": \"node\", \"filters\": {\"attributes.sites\": {\"longer\": \"a\"}}}"),
                "needs a length");
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"filters\": {\"ctime\": {\">\": \"yesterday\"}}}"),
                "ISO-8601");
        refused(node("{\"tag\": \"b\", \"entity\": \"node\", \"filters\": {\"uuid\": \"nope\"}}"), "needs a UUID");
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"filters\": {\"attributes.x\": {\"of_type\": \"int\"}}}"),
                "[object, array, string, number, boolean, null]");
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"filters\": {\"attributes.x\": {\">\": [1]}}}"),
                "needs a number or a string, got [1] (array)");
        refused(
                node("{\"tag\": \"b\", \"entity\": \"node\", \"with_incoming\": \"a\","
                        + " \"edge_filters\": {\"type\": \"creates\"}}"),
                "unknown link type 'creates'");
    }

    @Test
    void unknownEntityKeysAndBadJson() {
        refused(
                "{\"path\": [{\"tag\": \"a\", \"entity\": \"nodes\"}]}",
                "unknown entity type 'nodes'",
                "[node, group, computer, user, comment, log]");
        refused(
                "{\"path\": [{\"tag\": \"a\", \"entity\": \"node\"}], \"sort\": []}",
                "unknown key 'sort'",
                "[path, order_by, limit, offset, distinct, after]");
        refused("{\"path\": [", "not valid JSON");
        refused("{\"path\": []}", "at least one vertex");
        refused(
                "{\"path\": [{\"tag\": \"a\", \"entity\": \"node\", \"project\": [\"id\"]}], \"after\": 5}",
                "after (keyset paging) needs the query ordered by one vertex's id");
    }

    @Test
    void theJavaBuilderIsValidatedAlike() {
        int before = counting.connections.get();
        InvalidQueryException e = assertThrows(
                InvalidQueryException.class,
                () -> GraphQuery.on(
                        counting,
                        QueryBuilder.start()
                                .node(
                                        "s",
                                        v -> v.where(
                                                Filter.field("attributes.sites").longer(-1)))
                                .build()));
        assertTrue(e.getMessage().contains("needs a length (an integer, 0 or more), got -1"), e.getMessage());
        e = assertThrows(
                InvalidQueryException.class,
                () -> QueryBuilder.start()
                        .node("s", v -> v.type("StructureData"))
                        .build());
        assertTrue(e.getMessage().contains("node_type 'StructureData' is not a node type or prefix"), e.getMessage());
        e = assertThrows(
                InvalidQueryException.class,
                () -> QueryBuilder.start()
                        .node("s", v -> v.where(Filter.field("id").eq(new Object())))
                        .build());
        assertTrue(e.getMessage().contains("JSON-like"), e.getMessage());
        assertEquals(before, counting.connections.get());
        assertThrows(
                InvalidQueryException.class,
                () -> QueryBuilder.start()
                        .node("s", v -> v.project("id"))
                        .distinct()
                        .orderBy(Order.asc("s", "label"))
                        .build());
    }

    /** A data source that counts the connections asked of it. */
    static final class CountingDataSource implements DataSource {
        final DataSource target;
        final AtomicInteger connections = new AtomicInteger();

        CountingDataSource(DataSource target) {
            this.target = target;
        }

        @Override
        public Connection getConnection() throws SQLException {
            connections.incrementAndGet();
            return target.getConnection();
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            connections.incrementAndGet();
            return target.getConnection(user, password);
        }

        @Override
        public PrintWriter getLogWriter() throws SQLException {
            return target.getLogWriter();
        }

        @Override
        public void setLogWriter(PrintWriter out) throws SQLException {
            target.setLogWriter(out);
        }

        @Override
        public void setLoginTimeout(int seconds) throws SQLException {
            target.setLoginTimeout(seconds);
        }

        @Override
        public int getLoginTimeout() throws SQLException {
            return target.getLoginTimeout();
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            return target.getParentLogger();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            return target.unwrap(iface);
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) throws SQLException {
            return target.isWrapperFor(iface);
        }
    }
}
