package dev.cairn.storage.query;

import static dev.cairn.storage.query.QueryFixture.assertIds;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.NodeRecord;
import dev.cairn.storage.testing.TestDatabase;

/** Every operator, positive and negated, on columns and JSON paths; negation is the complement. */
class FilterOperatorsIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    static Database database;
    static final Set<Long> ALL = LongStream.rangeClosed(1, 13).boxed().collect(Collectors.toCollection(TreeSet::new));

    @BeforeAll
    static void fixture() throws SQLException {
        database = QueryFixture.open(db);
    }

    @AfterAll
    static void close() {
        database.close();
    }

    /** The nodes matching {@code field op value} are {@code expected}; with the operator negated, all the others. */
    private static void check(String field, Operator op, Object value, Long... expected) {
        Filter.On on = Filter.field(field);
        assertIds(List.of(expected), query(on.op(op, value)));
        Set<Long> rest = new TreeSet<>(ALL);
        List.of(expected).forEach(rest::remove);
        assertIds(rest, query(on.not().op(op, value)));
    }

    private static GraphQuery query(Filter filter) {
        return GraphQuery.on(
                database,
                QueryBuilder.start()
                        .node("n", v -> v.where(filter).project("id"))
                        .build());
    }

    @Test
    void equalityOnJsonComparesJsonValues() {
        check("attributes.value", Operator.EQ, 1, 1L);
        check("attributes.value", Operator.EQ, 1.0, 1L);
        check("attributes.value", Operator.EQ, "10", 3L);
        check("attributes.value", Operator.EQ, true, 4L);
        check("attributes.nul", Operator.EQ, null, 7L);
        check("attributes.a.b.2.c", Operator.EQ, "x", 7L);
        check("attributes.a.b.0", Operator.EQ, 1, 7L);
        check("extras", Operator.EQ, Map.of("tag", "b"), 2L);
    }

    @Test
    void numericComparisonsNeverMatchStringsOrBooleans() {
        check("attributes.value", Operator.GT, 2, 2L, 9L, 10L, 12L);
        check("attributes.value", Operator.LT, 3, 1L, 2L);
        check("attributes.value", Operator.GE, 3, 9L, 10L, 12L);
        check("attributes.value", Operator.LE, 2.5, 1L, 2L);
        check("attributes.cell.0.0", Operator.GT, 10.0, 5L);
    }

    @Test
    void stringComparisonsOnJsonMatchOnlyStrings() {
        check("attributes.value", Operator.GT, "1", 3L);
        check("attributes.value", Operator.LT, "2", 3L);
    }

    @Test
    void inListsMatchAnyJsonValueOrColumnValue() {
        check("attributes.value", Operator.IN, List.of(1, "10", true), 1L, 3L, 4L);
        check("attributes.value", Operator.IN, List.of(2.5), 2L);
        check("attributes.value", Operator.IN, List.of(1, 2.5, 99), 1L, 2L);
        check("attributes.value", Operator.IN, List.of("10", "x"), 3L);
        check("attributes.value", Operator.IN, List.of(true), 4L);
        check("id", Operator.IN, List.of(1, 2), 1L, 2L);
        check("label", Operator.IN, List.of("dict", "wf"), 7L, 13L);
    }

    @Test
    void likeAndIlikeOnColumnsAndJsonStrings() {
        check("label", Operator.LIKE, "o%", 1L, 9L, 10L, 12L);
        check("label", Operator.ILIKE, "three", 3L);
        check("attributes.value", Operator.LIKE, "1%", 3L);
        check("attributes.value", Operator.ILIKE, "1_", 3L);
    }

    @Test
    void hasKeyContainsAndTypes() {
        check("attributes", Operator.HAS_KEY, "sites", 5L, 6L);
        check("attributes.a", Operator.HAS_KEY, "b", 7L);
        check("attributes.kinds", Operator.CONTAINS, List.of(Map.of("name", "Ba")), 5L);
        check("attributes.kinds", Operator.CONTAINS, List.of(Map.of("name", "O")), 5L, 6L);
        check("extras", Operator.CONTAINS, Map.of("tag", "a"), 1L);
        check("attributes.value", Operator.OF_TYPE, "string", 3L);
        check("attributes.value", Operator.OF_TYPE, "number", 1L, 2L, 9L, 10L, 12L);
        check("attributes.value", Operator.OF_TYPE, "boolean", 4L);
        check("attributes.nul", Operator.OF_TYPE, "null", 7L);
        check("attributes.obj", Operator.OF_TYPE, "object", 7L);
    }

    @Test
    void lengthsApplyToArraysOnly() {
        check("attributes.sites", Operator.OF_LENGTH, 10, 6L);
        check("attributes.sites", Operator.LONGER, 32, 5L);
        check("attributes.sites", Operator.SHORTER, 32, 6L);
        check("attributes.list", Operator.OF_LENGTH, 0, 7L);
        // an object has no length: of_length 0 does not match {}
        check("attributes.obj", Operator.OF_LENGTH, 0);
    }

    @Test
    void columnsOfEveryKind() {
        check("id", Operator.EQ, 5, 5L);
        check("id", Operator.GT, 11, 12L, 13L);
        check("label", Operator.EQ, "dict", 7L);
        check("ctime", Operator.GT, "2024-01-01T10:30:00Z", 11L, 12L, 13L);
        check("ctime", Operator.EQ, "2024-01-01T01:00:00Z", 1L);
        check("computer_id", Operator.EQ, 1, 8L, 11L);
        check("process_type", Operator.EQ, null, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 9L, 10L, 12L);
        NodeRecord d1 = (NodeRecord) GraphQuery.on(
                        database,
                        QueryBuilder.start()
                                .node(
                                        "n",
                                        v -> v.where(Filter.field("id").eq(1)).project("*"))
                                .build())
                .one()
                .get(0);
        check("uuid", Operator.EQ, d1.uuid().toString(), 1L);
        check("uuid", Operator.IN, List.of(d1.uuid().toString()), 1L);
        check("uuid", Operator.LIKE, d1.uuid().toString().substring(0, 8) + "%", 1L);
    }

    @Test
    void andOrNotNest() {
        assertIds(
                List.of(1L, 2L),
                query(Filter.or(Filter.field("id").eq(1), Filter.field("id").eq(2))));
        assertIds(
                List.of(10L, 12L),
                query(Filter.and(
                        Filter.field("label").like("o%"),
                        Filter.field("attributes.value").gt(3))));
        assertIds(List.of(13L), query(Filter.not(Filter.field("id").in(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12))));
        assertIds(
                List.of(1L, 13L),
                query(Filter.or(
                        Filter.field("id").eq(1),
                        Filter.not(Filter.or(
                                Filter.field("id").lt(13), Filter.field("label").eq("x"))))));
        // not(absent path) is true: two-valued logic
        assertEquals(
                13,
                FilterOperatorsIT.query(
                                Filter.not(Filter.field("extras.missing").eq(1)))
                        .all()
                        .size());
    }

    @Test
    void jsonFormOperatorsAndNegationPrefixes() {
        QuerySpec spec = QuerySpec.fromJson("""
            {"path": [{"tag": "n", "entity": "node", "project": ["id"], "filters": {
               "or": [{"id": {"~in": [1,2,3,4,5,6,7,8,9,10,11,12]}}, {"label": {"!like": "%%"}}, {"label": "dict"},
                      {"~and": [{"id": {">": 0}}, {"id": {"!=": 2}}]}]}}]}""");
        assertIds(List.of(2L, 7L, 13L), GraphQuery.on(database, spec));
    }
}
