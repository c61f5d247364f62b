package dev.cairn.storage.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.testing.TestDatabase;

/**
 * Several keys of one document, read through the lateral sub-select that decompresses it once a
 * row ({@link SharedDocuments}), give exactly what each key read alone gives: decoded and as the
 * database's JSON text, for large (compressed) and small documents, tricky values and a missing key.
 */
class SharedDocumentsIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;

    /** Keys of every kind of value, a path into nested values, a key no document has. */
    static final List<Projection> PROJECTIONS = List.of(
            Projection.of("attributes.log"),
            Projection.of("attributes.big"),
            Projection.of("attributes.beyond64"),
            Projection.of("attributes.tiny"),
            Projection.of("attributes.tenth"),
            Projection.of("attributes.negative"),
            Projection.of("attributes.unicode"),
            Projection.of("attributes.nul"),
            Projection.of("attributes.nested"),
            Projection.of("attributes.nested.a.1.b"),
            Projection.of("attributes.nested.a.0"),
            Projection.of("attributes.missing"),
            Projection.of("attributes.missing.deeper"),
            Projection.of("attributes.flag"),
            Projection.of("attributes.big", Cast.INTEGER),
            Projection.of("attributes.tiny", Cast.FLOAT),
            Projection.of("attributes.unicode", Cast.TEXT),
            Projection.of("attributes.flag", Cast.BOOLEAN),
            Projection.of("attributes.nul", Cast.TEXT),
            Projection.of("attributes"),
            Projection.of("extras.tag"),
            Projection.of("attributes.tagged"),
            Projection.of("attributes.looks"),
            Projection.of("attributes.empty"));

    @BeforeAll
    static void fixture() throws SQLException {
        database = Database.open(DatabaseConfig.of(db.jdbcUrl()).withPoolSize(2));
        String values = """
                "big": 9223372036854775807, "beyond64": 123456789012345678901234567890,
                "tiny": 1e-300, "tenth": 0.1, "negative": -2.5e10,
                "unicode": "ü 😀 \\" \\\\ \\n\\t \\u0001 end", "nul": null,
                "nested": {"a": [1, {"b": null}, "x"], "c": {}}, "flag": true,
                "tagged": "s12", "looks": "null", "empty": ""\
                """;
        // a log of some 40 KB that compresses well: this document is stored compressed
        String large = "{\"log\": \"" + "Zeile ü 😀 line\\n".repeat(2500) + "\", " + values + "}";
        String small = "{\"log\": \"short\", " + values + "}";
        try (Connection c = database.connection();
                Statement s = c.createStatement();
                PreparedStatement insert = c.prepareStatement("""
                        INSERT INTO node (id, uuid, node_type, label, ctime, mtime, user_id, attributes, extras)
                        OVERRIDING SYSTEM VALUE
                        VALUES (?, gen_random_uuid(), 'data.core.dict.Dict.', 'shared', now(), now(), 1, ?::jsonb,
                                ?::jsonb)""")) {
            s.execute("INSERT INTO app_user (id, email) OVERRIDING SYSTEM VALUE VALUES (1, 'ada@example.com')");
            Object[][] nodes = {
                {1L, large, "{\"tag\": \"large\"}"},
                {2L, small, "{}"},
                {3L, "{}", "{\"tag\": null}"},
                {4L, "{\"log\": 1, \"nested\": [1, 2], \"flag\": \"yes\", \"big\": 1.5}", "{}"}
            };
            for (Object[] node : nodes) {
                insert.setLong(1, (Long) node[0]);
                insert.setString(2, (String) node[1]);
                insert.setString(3, (String) node[2]);
                insert.executeUpdate();
            }
            try (ResultSet rs = s.executeQuery("SELECT pg_column_compression(attributes) FROM node WHERE id = 1")) {
                assertTrue(rs.next());
                assertNotNull(rs.getString(1), "the large document is stored compressed");
            }
        }
    }

    @AfterAll
    static void close() {
        database.close();
    }

    private static QuerySpec spec(List<Projection> projections) {
        return QueryBuilder.start()
                .node(
                        "n",
                        v -> v.where(Filter.field("label").eq("shared"))
                                .project(projections.toArray(new Projection[0])))
                .orderBy(Order.asc("n", "id"))
                .build();
    }

    /** Each node's values read by one query of all the projections, by {@code read}. */
    private static List<List<Object>> together(Function<GraphQuery, GraphQuery> read) {
        GraphQuery query = read.apply(GraphQuery.on(database, spec(PROJECTIONS)));
        assertTrue(query.sql().sql().contains("CROSS JOIN LATERAL"), query.sql().sql());
        return query.all().stream()
                .map(Row::values)
                .map(SharedDocumentsIT::comparable)
                .toList();
    }

    /** Each node's values read by a query per projection, the document read once per key. */
    private static List<List<Object>> oneByOne(Function<GraphQuery, GraphQuery> read) {
        List<List<Object>> rows = new ArrayList<>();
        for (Projection p : PROJECTIONS) {
            GraphQuery query = read.apply(GraphQuery.on(database, spec(List.of(p))));
            assertFalse(query.sql().sql().contains("LATERAL"), query.sql().sql());
            List<Row> column = query.all();
            for (int r = 0; r < column.size(); r++) {
                if (rows.size() <= r) {
                    rows.add(new ArrayList<>());
                }
                rows.get(r).add(comparable(column.get(r).values()).getFirst());
            }
        }
        return rows;
    }

    /** The text of values left undecoded, which has no equality of its own. */
    private static List<Object> comparable(List<Object> values) {
        return values.stream()
                .map(v -> switch (v) {
                    case UndecodedJson json -> "json:" + json;
                    case UndecodedString string -> "string:" + string;
                    case null, default -> v;
                })
                .toList();
    }

    @Test
    void decodedValuesAreThoseOfEachKeyReadAlone() {
        List<List<Object>> together = together(q -> q);
        assertEquals(4, together.size());
        assertEquals(oneByOne(q -> q), together);
        List<Object> large = together.getFirst();
        assertEquals(Long.MAX_VALUE, large.get(1));
        assertEquals("ü 😀 \" \\ \n\t \u0001 end", large.get(6));
        assertEquals(null, large.get(11));
    }

    @Test
    void jsonTextIsThatOfEachKeyReadAlone() {
        List<List<Object>> together = together(GraphQuery::withJsonAsText);
        assertEquals(oneByOne(GraphQuery::withJsonAsText), together);
        assertEquals("json:123456789012345678901234567890", together.get(1).get(2));
        assertEquals("json:null", together.get(1).get(7));
    }

    @Test
    void stringsComeAsTheirCharactersAndEverythingElseAsJsonText() {
        List<List<Object>> text = together(GraphQuery::withJsonAsText);
        List<List<Object>> decoded = together(q -> q);
        for (int r = 0; r < decoded.size(); r++) {
            for (int c = 0; c < PROJECTIONS.size(); c++) {
                Object value = decoded.get(r).get(c);
                Object undecoded = text.get(r).get(c);
                String where = "row " + r + ", " + PROJECTIONS.get(c);
                if (PROJECTIONS.get(c).cast() != null || value == null && undecoded == null) {
                    continue;
                }
                if (value instanceof String string) {
                    assertEquals("string:" + string, undecoded, where);
                } else {
                    assertTrue(undecoded.toString().startsWith("json:"), where + ": " + undecoded);
                }
            }
        }
        assertEquals("string:ü 😀 \" \\ \n\t \u0001 end", text.get(0).get(6));
        assertEquals("string:" + "Zeile ü 😀 line\n".repeat(2500), text.get(0).get(0));
        assertEquals(
                List.of("string:s12", "string:null", "string:"), text.get(1).subList(21, 24));
        assertEquals("string:yes", text.get(3).get(13));
    }

    @Test
    void pagedAndOrderedRowsAreTheSameAsJsonText() {
        Function<GraphQuery, List<Object>> logs =
                q -> q.all().stream().map(r -> comparable(r.values()).get(1)).toList();
        QuerySpec paged = QueryBuilder.start()
                .node("n", v -> v.project("id", "attributes.log"))
                .orderBy(Order.desc("n", "id"))
                .limit(2)
                .offset(1)
                .build();
        List<Object> text = logs.apply(GraphQuery.on(database, paged).withJsonAsText());
        assertEquals(Arrays.asList(null, "string:short"), text);
        assertEquals(
                List.of("string:short"),
                logs.apply(GraphQuery.on(
                                database,
                                QueryBuilder.start()
                                        .node(
                                                "n",
                                                v -> v.where(Filter.field("id").eq(2L))
                                                        .project("id", "attributes.log"))
                                        .distinct()
                                        .build())
                        .withJsonAsText()));
    }

    @Test
    void filtersOrdersAndAggregatesKeepTheirMeaning() {
        Function<String[], List<Object>> logs = fields -> GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node(
                                        "n",
                                        v -> v.where(Filter.field("attributes.flag")
                                                        .eq(true))
                                                .project(fields))
                                .orderBy(Order.desc("n", "attributes.log"))
                                .build())
                .all()
                .stream()
                .map(r -> r.get(0))
                .toList();
        List<Object> shared = logs.apply(new String[] {"attributes.log", "attributes.tenth"});
        assertEquals(2, shared.size());
        assertEquals(logs.apply(new String[] {"attributes.log"}), shared);

        QuerySpec counted = QueryBuilder.start()
                .node(
                        "n",
                        v -> v.project(
                                Projection.of("attributes.tenth"),
                                Projection.count("attributes.log"),
                                new Projection("attributes.big", Cast.FLOAT, Aggregate.MAX)))
                .orderBy(Order.asc("n", "attributes.tenth"))
                .build();
        GraphQuery query = GraphQuery.on(database, counted);
        assertTrue(query.sql().sql().contains("CROSS JOIN LATERAL"), query.sql().sql());
        List<List<Object>> groups = query.all().stream().map(Row::values).toList();
        assertEquals(List.of(List.of(0.1, 2L, 9.223372036854776E18), Arrays.asList(null, 1L, 1.5)), groups);
        assertEquals(
                Map.of(),
                GraphQuery.on(database, spec(List.of(Projection.of("attributes"))))
                        .all()
                        .get(2)
                        .get(0));
    }
}
