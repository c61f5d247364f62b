package dev.cairn.storage.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.testing.TestDatabase;

/**
 * A small provenance graph written with plain SQL, with fixed ids so tests can name rows:
 * <pre>
 *   d1 Int{value 1} --input_calc x--> calc1 --create result--> o1 --input_calc x--> calc2 --create out--> o3
 *   d2 Float{2.5}   --input_calc y--> calc1 --create out-----> o2
 *   d1 --input_work a--> wf --call_calc c1--> calc1;  wf --return result--> o2
 * </pre>
 * plus d3 Str{"10"}, d4 Bool{true}, s1/s2 structures, dict, users, a computer, a group,
 * a comment and a log entry.
 */
final class QueryFixture {

    static final long D1 = 1,
            D2 = 2,
            D3 = 3,
            D4 = 4,
            S1 = 5,
            S2 = 6,
            DICT = 7,
            CALC1 = 8,
            O1 = 9,
            O2 = 10,
            CALC2 = 11,
            O3 = 12,
            WF = 13;
    static final long U1 = 1, U2 = 2, COMPUTER = 1, GROUP = 1, COMMENT = 1, LOG = 1;

    private QueryFixture() {}

    static Database open(TestDatabase db) throws SQLException {
        Database database = Database.open(DatabaseConfig.of(db.jdbcUrl()).withPoolSize(3));
        try (Connection c = database.connection();
                Statement s = c.createStatement()) {
            s.execute(SQL);
        }
        return database;
    }

    static String sites(int n, String kind) {
        StringBuilder s = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            s.append(i == 0 ? "" : ", ")
                    .append("{\"kind_name\": \"")
                    .append(kind)
                    .append("\", \"position\": [")
                    .append(i)
                    .append(".5, 0.0, 1.0]}");
        }
        return s.append(']').toString();
    }

    private static final String SQL = """
        INSERT INTO app_user (id, email, first_name) OVERRIDING SYSTEM VALUE VALUES
            (1, 'ada@example.com', 'Ada'), (2, 'bob@example.com', 'Bob');
        INSERT INTO computer (id, uuid, label, hostname, transport_type, scheduler_type) OVERRIDING SYSTEM VALUE VALUES
            (1, gen_random_uuid(), 'localhost', 'localhost', 'core.local', 'core.direct');
        INSERT INTO node (id, uuid, node_type, process_type, label, description, ctime, mtime, user_id, computer_id,
                          attributes, extras) OVERRIDING SYSTEM VALUE
        SELECT id, gen_random_uuid(), node_type, process_type, label, '', timestamptz '2024-01-01 00:00Z' + id * interval '1 hour',
               timestamptz '2024-01-01 00:00Z' + id * interval '1 hour', user_id, computer_id, attributes::jsonb, extras::jsonb
        FROM (VALUES
            (1, 'data.core.int.Int.', NULL, 'one', 1, NULL, '{"value": 1}', '{"tag": "a", "n": 5}'),
            (2, 'data.core.float.Float.', NULL, 'two', 1, NULL, '{"value": 2.5}', '{"tag": "b"}'),
            (3, 'data.core.str.Str.', NULL, 'Three', 1, NULL, '{"value": "10"}', '{}'),
            (4, 'data.core.bool.Bool.', NULL, 'four', 2, NULL, '{"value": true}', '{}'),
            (5, 'data.core.structure.StructureData.', NULL, 'BaTiO3', 1, NULL,
                '{"cell": [[11.0, 0.0, 0.0], [0.0, 11.0, 0.0], [0.0, 0.0, 11.0]], "pbc1": true,
                  "kinds": [{"name": "Ba", "symbols": ["Ba"], "weights": [1.0], "mass": 137.327},
                            {"name": "O", "symbols": ["O"], "weights": [1.0], "mass": 15.999}],
                  "sites": %s}', '{}'),
            (6, 'data.core.structure.StructureData.', NULL, 'SiO2', 2, NULL,
                '{"cell": [[5.0, 0.0, 0.0], [0.0, 5.0, 0.0], [0.0, 0.0, 5.0]], "pbc1": false,
                  "kinds": [{"name": "O", "symbols": ["O"], "weights": [1.0], "mass": 15.999}],
                  "sites": %s}', '{}'),
            (7, 'data.core.dict.Dict.', NULL, 'dict', 1, NULL,
                '{"a": {"b": [1, 2, {"c": "x"}]}, "list": [], "obj": {}, "nul": null, "when": "2024-05-01T12:00:00Z"}', '{}'),
            (8, 'process.calculation.calcfunction.CalcFunctionNode.', 'add', 'calc1', 1, 1,
                '{"process_state": "finished", "exit_status": 0}', '{}'),
            (9, 'data.core.int.Int.', NULL, 'o1', 1, NULL, '{"value": 3}', '{}'),
            (10, 'data.core.int.Int.', NULL, 'o2', 1, NULL, '{"value": 4}', '{}'),
            (11, 'process.calculation.calcjob.CalcJobNode.', 'arith.add', 'calc2', 1, 1,
                '{"process_state": "finished", "exit_status": 0}', '{}'),
            (12, 'data.core.int.Int.', NULL, 'o3', 1, NULL, '{"value": 7}', '{}'),
            (13, 'process.workflow.workchain.WorkChainNode.', 'wc', 'wf', 1, NULL,
                '{"process_state": "finished", "exit_status": 0}', '{}')
        ) AS v(id, node_type, process_type, label, user_id, computer_id, attributes, extras);
        INSERT INTO link (input_id, output_id, type, label) VALUES
            (1, 8, 'input_calc', 'x'), (2, 8, 'input_calc', 'y'), (8, 9, 'create', 'result'), (8, 10, 'create', 'out'),
            (9, 11, 'input_calc', 'x'), (11, 12, 'create', 'out'),
            (1, 13, 'input_work', 'a'), (13, 8, 'call_calc', 'c1'), (13, 10, 'return', 'result');
        INSERT INTO node_group (id, uuid, label, time, user_id) OVERRIDING SYSTEM VALUE VALUES
            (1, gen_random_uuid(), 'inputs', now(), 2);
        INSERT INTO group_member (group_id, node_id) VALUES (1, 1), (1, 2), (1, 5);
        INSERT INTO comment (id, uuid, node_id, user_id, ctime, mtime, content) OVERRIDING SYSTEM VALUE VALUES
            (1, gen_random_uuid(), 1, 2, now(), now(), 'looks right');
        INSERT INTO log (id, uuid, time, logger_name, level_name, node_id, message) OVERRIDING SYSTEM VALUE VALUES
            (1, gen_random_uuid(), now(), 'cairn.engine', 'REPORT', 8, 'adding');
        """.formatted(sites(40, "Ba"), sites(10, "O"));

    /** The ids a query returns in its first column, as a sorted set; read through its COPY too, to the same rows. */
    static Set<Long> ids(GraphQuery query) {
        assertCopyReadsAsCursor(query);
        Set<Long> ids = new TreeSet<>();
        for (Row row : query.all()) {
            ids.add((Long) row.get(0));
        }
        return ids;
    }

    static void assertIds(Collection<Long> expected, GraphQuery query) {
        assertEquals(
                new TreeSet<>(expected), ids(query), () -> "SQL: " + query.sql().sql());
    }

    /**
     * {@link GraphQuery#stream()}, which reads through a COPY with the query's values written in, gives
     * the rows a cursor with them bound gives (in the same order where the query orders them), as
     * decoded values and as JSON text.
     */
    static void assertCopyReadsAsCursor(GraphQuery query) {
        for (GraphQuery q : List.of(query, query.withJsonAsText())) {
            List<List<Object>> streamed;
            try (Stream<Row> rows = q.stream()) {
                streamed = inOrder(q, rows.map(QueryFixture::comparable).toList());
            }
            assertEquals(
                    inOrder(q, q.all().stream().map(QueryFixture::comparable).toList()),
                    streamed,
                    () -> "SQL: " + q.sql().sql() + "\nparameters: " + q.sql().parameters());
        }
    }

    private static List<List<Object>> inOrder(GraphQuery q, List<List<Object>> rows) {
        return q.spec().orderBy().isEmpty()
                ? rows.stream().sorted(Comparator.comparing(String::valueOf)).toList()
                : rows;
    }

    /** A row's values, JSON text and strings as Java strings (their classes compare by identity). */
    private static List<Object> comparable(Row row) {
        return row.values().stream()
                .map(v -> switch (v) {
                    case UndecodedJson json -> "json " + new String(json.utf8(), StandardCharsets.UTF_8);
                    case UndecodedString string -> "string " + new String(string.utf8(), StandardCharsets.UTF_8);
                    case null -> "null";
                    default -> v;
                })
                .toList();
    }

    static List<Long> idList(GraphQuery query) {
        assertCopyReadsAsCursor(query);
        return query.all().stream().map(r -> (Long) r.get(0)).toList();
    }
}
