package dev.cairn.storage.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.PGConnection;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.query.AttributeIndex.State;
import dev.cairn.storage.query.AttributeIndex.Type;
import dev.cairn.storage.testing.TestDatabase;

/**
 * Declared attribute indexes on 20,000 dicts: built, used by the planner for the filters the compiler
 * writes (a number range, a string equality, a nested key, a key that needs quoting), the same rows
 * with and without them, rebuilt when left invalid, dropped; bad keys and types refused.
 */
class AttributeIndexesIT {

    static final int DICTS = 20_000;

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;
    static AttributeIndexes indexes;

    @BeforeAll
    static void fixture() throws SQLException {
        database = QueryFixture.open(db);
        indexes = new AttributeIndexes(database);
        // energy in (-1, 0], every hundredth a string; run one of 500 names; a nested value; a key with a quote
        sql("INSERT INTO node (id, uuid, node_type, label, ctime, mtime, user_id, attributes) OVERRIDING SYSTEM VALUE"
                + " SELECT 1000 + i, gen_random_uuid(), 'data.core.dict.Dict.', 'bench', now(), now(), 1,"
                + " jsonb_build_object('energy', CASE WHEN i % 100 = 0 THEN to_jsonb('-1.5'::text)"
                + " ELSE to_jsonb(-(i % 1000) / 1000.0) END,"
                + " 'run', 'r' || (i % 500), 'cell', jsonb_build_object('a', i % 1000), 'it''s \\ \"x\"', i % 1000)"
                + " FROM generate_series(1, " + DICTS + ") AS i");
    }

    @AfterEach
    void dropAll() {
        for (AttributeIndex index : indexes.list()) {
            if (index.key() != null) {
                indexes.drop(index.key(), index.type());
            }
        }
    }

    @AfterAll
    static void close() {
        database.close();
    }

    @Test
    void aNumberIndexServesRangesAndEqualityWithTheSameRows() {
        List<GraphQuery> queries = List.of(
                query(Filter.field("attributes.energy").lt(-0.99)),
                query(Filter.field("attributes.energy").eq(-0.25)),
                query(Filter.field("attributes.energy").in(List.of(-0.25, -0.75))));
        List<List<Long>> before = queries.stream().map(AttributeIndexesIT::rows).toList();
        assertEquals(List.of(180, 20, 40), before.stream().map(List::size).toList());

        AttributeIndex index = indexes.add("energy", Type.NUMBER);

        assertEquals(new AttributeIndex("energy", Type.NUMBER, index.name(), State.READY, index.bytes()), index);
        assertTrue(index.bytes() > 0, index::toString);
        assertEquals(List.of(index), indexes.list());
        for (int i = 0; i < queries.size(); i++) {
            assertUses(index, queries.get(i));
            assertEquals(before.get(i), rows(queries.get(i)));
        }
        // the string values at the key are not in a number index, and a string filter still finds them
        assertEquals(
                200, rows(query(Filter.field("attributes.energy").eq("-1.5"))).size());
    }

    @Test
    void aStringIndexServesEqualityInAndRanges() {
        GraphQuery eq = query(Filter.field("attributes.run").eq("r17"));
        GraphQuery in = query(Filter.field("attributes.run").in(List.of("r17", "r18")));
        GraphQuery range = query(Filter.field("attributes.run").gt("r98"));
        List<List<Long>> before = List.of(rows(eq), rows(in), rows(range));
        assertEquals(List.of(40, 80, 40), before.stream().map(List::size).toList());

        AttributeIndex index = indexes.add("run", Type.STRING);

        assertEquals(State.READY, index.state());
        assertUses(index, eq);
        assertUses(index, in);
        assertUses(index, range);
        assertEquals(before, List.of(rows(eq), rows(in), rows(range)));
    }

    @Test
    void nestedKeysAndKeysThatNeedQuotingAreIndexedAsTheCompilerReadsThem() {
        GraphQuery nested = query(Filter.field("attributes.cell.a").eq(7));
        GraphQuery quoted = query(Filter.field("attributes.it's \\ \"x\"").lt(3));
        List<Long> nestedRows = rows(nested);
        List<Long> quotedRows = rows(quoted);

        AttributeIndex a = indexes.add("cell.a", Type.NUMBER);
        AttributeIndex q = indexes.add("it's \\ \"x\"", Type.NUMBER);

        assertUses(a, nested);
        assertUses(q, quoted);
        assertEquals(20, nestedRows.size());
        assertEquals(nestedRows, rows(nested));
        assertEquals(60, quotedRows.size());
        assertEquals(quotedRows, rows(quoted));
        assertEquals(
                List.of("cell.a", "it's \\ \"x\""),
                indexes.list().stream().map(AttributeIndex::key).sorted().toList());
    }

    @Test
    void addingTwiceKeepsOneIndexAndDropStopsItsUse() {
        AttributeIndex first = indexes.add("energy", Type.NUMBER);
        assertEquals(first, indexes.add("energy", Type.NUMBER));
        assertEquals(1, indexes.list().size());

        indexes.drop("energy", Type.NUMBER);

        assertEquals(List.of(), indexes.list());
        assertFalse(query(Filter.field("attributes.energy").lt(-0.99)).explain().contains(first.name()));
        NotFoundException e = assertThrows(NotFoundException.class, () -> indexes.drop("energy", Type.NUMBER));
        assertTrue(e.getMessage().contains("no index on attribute 'energy' of type number"), e.getMessage());
    }

    @Test
    void anIndexLeftInvalidByAFailedBuildIsReportedAndRebuilt() throws SQLException {
        String name = AttributeIndexes.name("energy", Type.NUMBER);
        // a build that fails half way, as one cancelled or out of disk would: the strings do not cast
        SQLException failed = assertThrows(
                SQLException.class,
                () -> sql("CREATE INDEX CONCURRENTLY " + name + " ON node (((attributes ->> 'energy')::bigint))"));
        assertTrue(failed.getMessage().contains("invalid input syntax"), failed.getMessage());
        assertEquals(
                List.of(State.INVALID),
                indexes.list().stream().map(AttributeIndex::state).toList());

        AttributeIndex rebuilt = indexes.add("energy", Type.NUMBER);

        assertEquals(State.READY, rebuilt.state());
        assertEquals("energy", rebuilt.key());
        assertUses(rebuilt, query(Filter.field("attributes.energy").lt(-0.99)));
    }

    @Test
    void keysAndTypesThatCannotBeIndexedAreRefusedByName() {
        assertRefused("", Type.NUMBER, "an attribute index needs a key");
        assertRefused("a..b", Type.NUMBER, "cannot index attribute key 'a..b': it has an empty path element");
        assertRefused("energy.", Type.STRING, "cannot index attribute key 'energy.': it has an empty path element");
        assertRefused("tab\there", Type.NUMBER, "cannot index attribute key 'tab?here': it holds a control character");
        assertRefused("k".repeat(201), Type.NUMBER, "it has 201 characters, at most 200");
        InvalidInputException type = assertThrows(InvalidInputException.class, () -> Type.of("boolean"));
        assertEquals("cannot index attributes of type 'boolean': the types are [number, string]", type.getMessage());
        assertEquals(List.of(), indexes.list());
    }

    private static void assertRefused(String key, Type type, String message) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> indexes.add(key, type));
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    /**
     * EXPLAIN ANALYZE of the query shows an index scan or a bitmap index scan on {@code index}, as
     * does that of its text with the values written in, which {@link GraphQuery#stream()}'s COPY runs.
     */
    private static void assertUses(AttributeIndex index, GraphQuery query) {
        String inlined;
        StringBuilder inlinedPlan = new StringBuilder();
        try (Connection c = database.connection();
                Statement s = c.createStatement()) {
            inlined = InlinedSql.of(query.sql(), c.unwrap(PGConnection.class));
            try (ResultSet rs = s.executeQuery("EXPLAIN ANALYZE " + inlined)) {
                while (rs.next()) {
                    inlinedPlan.append(rs.getString(1)).append('\n');
                }
            }
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
        for (String plan : List.of(query.explain(true), inlinedPlan.toString())) {
            assertTrue(
                    plan.contains("Index Scan using " + index.name())
                            || plan.contains("Bitmap Index Scan on " + index.name()),
                    () -> "no scan of " + index.name() + " in the plan of "
                            + query.sql().sql() + " (values written in: " + inlined + "):\n" + plan);
        }
    }

    private static GraphQuery query(Filter filter) {
        return GraphQuery.on(
                database,
                QueryBuilder.start()
                        .node(
                                "d",
                                v -> v.type("data.core.dict.Dict.")
                                        .where(filter)
                                        .project("id"))
                        .build());
    }

    private static void sql(String statement) throws SQLException {
        try (Connection c = database.connection();
                Statement s = c.createStatement()) {
            s.execute(statement);
        }
    }

    /** The ids a query answers, in id order: it asks for no order, and an index may give its rows in its own. */
    private static List<Long> rows(GraphQuery query) {
        return QueryFixture.idList(query).stream().sorted().toList();
    }
}
