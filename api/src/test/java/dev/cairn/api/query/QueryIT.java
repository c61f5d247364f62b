package dev.cairn.api.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.Node;

/**
 * POST /api/v1/query, /query/stream and /query/columns: the query builder's JSON form, paged, streamed as JSON
 * lines, or streamed as blocks of columns.
 */
class QueryIT extends ApiTest {

    static final int N = 3000;
    static boolean stored;

    static final String INTS =
            "{\"path\": [{\"tag\": \"n\", \"entity\": \"node\", \"node_type\": \"data.core.int.Int.\","
                    + " \"filters\": {\"label\": \"many\"}, \"project\": [\"uuid\", \"attributes.value\"]}],"
                    + " \"order_by\": [{\"tag\": \"n\", \"field\": \"id\"}]}";

    @BeforeEach
    void fixture() {
        if (stored) {
            return;
        }
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            IntData n = new IntData(i);
            n.setLabel("many");
            nodes.add(n);
        }
        engine.graph().storeAll(nodes);
        IntData x = engine.graph().store(new IntData(-1));
        CalcFunctionNode calc = new CalcFunctionNode("arithmetic.add_function");
        calc.addIncoming(x, LinkType.INPUT_CALC, "x");
        engine.graph().store(calc);
        stored = true;
    }

    Api reader() {
        return api(token(Role.READ));
    }

    @Test
    void rowsComeAPageAtATimeKeyedByTag() {
        Api api = reader();
        Set<String> uuids = new HashSet<>();
        List<Long> values = new ArrayList<>();
        String url = "/api/v1/query?limit=700&count=true";
        int pages = 0;
        while (url != null) {
            Api.Response r = api.post(url, INTS);
            assertEquals(200, r.status(), r.toString());
            JsonNode page = r.json();
            if (pages == 0) {
                assertEquals(N, page.get("total").asInt());
            }
            page.get("items").forEach(row -> {
                uuids.add(row.get("n").get("uuid").asString());
                values.add(row.get("n").get("attributes.value").asLong());
            });
            pages++;
            url = page.get("next") == null
                    ? null
                    : "/api/v1/query?limit=700&cursor=" + page.get("next").asString();
        }
        assertEquals(5, pages);
        assertEquals(N, uuids.size());
        for (int i = 0; i < N; i++) {
            assertEquals(i, values.get(i));
        }
    }

    @Test
    void theQuerysOwnLimitAndOffsetBoundItsPages() {
        String limited = INTS.replace("\"order_by\"", "\"limit\": 5, \"offset\": 10, \"order_by\"");
        JsonNode first = reader().post("/api/v1/query?limit=3", limited).json();
        assertEquals(
                10, first.get("items").get(0).get("n").get("attributes.value").asInt());
        JsonNode second = reader().post(
                        "/api/v1/query?limit=3&cursor=" + first.get("next").asString(), limited)
                .json();
        assertEquals(2, second.get("items").size());
        assertEquals(
                14, second.get("items").get(1).get("n").get("attributes.value").asInt());
        assertTrue(second.get("next") == null);
    }

    @Test
    void wholeRowsAndEdgesAreWrittenWithColumnNames() {
        String query = "{\"path\": [{\"tag\": \"c\", \"entity\": \"node\", \"node_type\": \"process.calculation.\","
                + " \"project\": [\"*\"]}, {\"tag\": \"i\", \"entity\": \"node\", \"with_outgoing\": \"c\","
                + " \"edge_project\": [\"type\", \"label\"], \"project\": [\"attributes.value\"]}]}";
        JsonNode row = reader().post("/api/v1/query", query).json().get("items").get(0);
        assertEquals(
                "process.calculation.calcfunction.CalcFunctionNode.",
                row.get("c").get("node_type").asString());
        assertEquals("arithmetic.add_function", row.get("c").get("process_type").asString());
        assertEquals("input_calc", row.get("c--i").get("type").asString());
        assertEquals("x", row.get("c--i").get("label").asString());
        assertEquals(-1, row.get("i").get("attributes.value").asInt());
    }

    @Test
    void theStreamWritesEveryRowAsALineOfJson() throws Exception {
        Api api = reader();
        HttpResponse<InputStream> r = api.stream(api.request("/api/v1/query/stream")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(INTS)));
        assertEquals(200, r.statusCode());
        assertEquals(
                "application/x-ndjson", r.headers().firstValue("Content-Type").orElseThrow());
        long lines = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                JsonNode row = Api.json().readTree(line);
                assertEquals(lines, row.get("n").get("attributes.value").asLong());
                lines++;
            }
        }
        assertEquals(N, lines);
    }

    @Test
    void aStreamThatFailsAfterItsFirstRowsEndsWithTheProblem() throws IOException {
        String query = storeDatesThenOneThatIsNot("stream", 12_000);
        Api api = reader();
        HttpResponse<InputStream> r = api.stream(api.request("/api/v1/query/stream")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(query)));
        assertEquals(200, r.statusCode());
        List<JsonNode> lines = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                lines.add(Api.json().readTree(line));
            }
        }
        assertTrue(
                lines.size() > 1_000 && lines.size() < 12_001,
                lines.size() + " lines: rows were sent before the failure");
        JsonNode last = lines.getLast();
        assertTrue(last.get("type").isString(), last.toString());
        assertEquals("urn:cairn:problem:invalid-input", last.get("type").asString());
        assertTrue(last.get("detail").asString().contains("not a date"), last.toString());
        assertTrue(lines.get(lines.size() - 2).get("d").isObject());
    }

    @Test
    void columnsComeAsAHeaderThenBlocksOfValues() throws Exception {
        List<JsonNode> lines = columnLines(INTS);
        assertEquals(
                "[{\"tag\":\"n\",\"key\":\"uuid\"},{\"tag\":\"n\",\"key\":\"attributes.value\"}]",
                lines.getFirst().get("columns").toString());
        int blocks = (N + ColumnBlocks.BLOCK - 1) / ColumnBlocks.BLOCK;
        assertEquals(1 + blocks, lines.size(), "a header, then whole blocks and what is left");
        List<String> uuids = new ArrayList<>();
        List<Long> values = new ArrayList<>();
        for (JsonNode block : lines.subList(1, lines.size())) {
            assertTrue(block.get(0).size() <= ColumnBlocks.BLOCK, block.get(0).size() + " rows in a block");
            block.get(0).forEach(u -> uuids.add(u.asString()));
            block.get(1).forEach(v -> values.add(v.asLong()));
        }
        assertEquals(N, uuids.size());
        assertEquals(N, new HashSet<>(uuids).size());
        assertEquals(LongStream.range(0, N).boxed().toList(), values);
        // unordered, the same rows in the order the database gives them
        String unorderedInts = INTS.replace(", \"order_by\": [{\"tag\": \"n\", \"field\": \"id\"}]", "");
        assertTrue(!unorderedInts.contains("order_by"), unorderedInts);
        List<JsonNode> unordered = columnLines(unorderedInts);
        List<Long> read = new ArrayList<>();
        unordered.subList(1, unordered.size()).forEach(block -> block.get(1).forEach(v -> read.add(v.asLong())));
        assertEquals(N, read.size());
        assertEquals(
                LongStream.range(0, N).boxed().toList(), read.stream().sorted().toList());
        String wholeAndEdge = "{\"path\": [{\"tag\": \"c\", \"entity\": \"node\", \"node_type\":"
                + " \"process.calculation.\", \"project\": [\"*\"]}, {\"tag\": \"i\", \"entity\": \"node\","
                + " \"with_outgoing\": \"c\", \"edge_project\": [\"label\"], \"project\": [\"attributes.value\"]}]}";
        List<JsonNode> calc = columnLines(wholeAndEdge);
        assertEquals(
                "[{\"tag\":\"c\",\"key\":\"*\"},{\"tag\":\"i\",\"key\":\"attributes.value\"},"
                        + "{\"tag\":\"c--i\",\"key\":\"label\"}]",
                calc.getFirst().get("columns").toString());
        JsonNode block = calc.get(1);
        assertEquals(
                "arithmetic.add_function",
                block.get(0).get(0).get("process_type").asString());
        assertEquals(-1, block.get(1).get(0).asInt());
        assertEquals("x", block.get(2).get(0).asString());
    }

    @Test
    void columnsThatFailAfterTheirFirstBlocksEndWithTheProblem() throws IOException {
        List<JsonNode> lines = columnLines(storeDatesThenOneThatIsNot("columns", 12_000));
        assertEquals("d", lines.getFirst().get("columns").get(0).get("tag").asString());
        // the cursor's first fetch (10,000 rows) makes whole blocks; its second meets the bad date
        assertTrue(lines.size() >= 3, lines.size() + " lines: the header, whole blocks, the problem");
        for (JsonNode block : lines.subList(1, lines.size() - 1)) {
            assertEquals(ColumnBlocks.BLOCK, block.get(0).size());
        }
        JsonNode last = lines.getLast();
        assertEquals("urn:cairn:problem:invalid-input", last.get("type").asString());
        assertTrue(last.get("detail").asString().contains("not a date"), last.toString());
    }

    /**
     * Stores {@code good} dates (more than a cursor fetches at once, 10,000), then one that does not read,
     * labelled {@code label}; returns the query that reads them as dates.
     */
    private String storeDatesThenOneThatIsNot(String label, int good) {
        List<Node> dated = new ArrayList<>();
        for (int i = 0; i < good; i++) {
            dated.add(new DictData(Map.of("when", "2024-05-01T12:00:00Z")));
        }
        dated.add(new DictData(Map.of("when", "not a date")));
        dated.forEach(d -> d.setLabel(label));
        engine.graph().storeAll(dated);
        return "{\"path\": [{\"tag\": \"d\", \"entity\": \"node\", \"node_type\": \"data.core.dict.Dict.\","
                + " \"filters\": {\"label\": \"" + label + "\"}, \"project\": [{\"field\": \"attributes.when\","
                + " \"cast\": \"d\"}]}]}";
    }

    @Test
    void streamsCarryJsonValuesAsThePagesDo() throws IOException {
        Map<String, Object> mixed = new LinkedHashMap<>();
        mixed.put("x", Map.of("nested", List.of(1, 2.5, "three", true)));
        mixed.put("s", "quote \" backslash \\ newline \n tab \t é 🙂 \u0001 \u001f \u2028 \u007f");
        mixed.put("e", "");
        mixed.put("j", "{\"looks\": [\"like JSON\"]}");
        mixed.put("big", 123456789012345678L);
        mixed.put("none", null);
        mixed.put("empty", Map.of());
        Map<String, Object> other = new LinkedHashMap<>();
        other.put("x", -0.125);
        other.put("s", 7);
        other.put("e", List.of("a list", "\"quoted\""));
        other.put("j", "{}");
        List<Node> nodes = new ArrayList<>(List.of(new DictData(mixed), new DictData(other)));
        nodes.forEach(n -> n.setLabel("mixed"));
        engine.graph().storeAll(nodes);
        String query = "{\"path\": [{\"tag\": \"d\", \"entity\": \"node\", \"node_type\": \"data.core.dict.Dict.\","
                + " \"filters\": {\"label\": \"mixed\"}, \"project\": [\"attributes.x\", \"attributes.s\","
                + " \"attributes.big\", \"attributes.none\", \"attributes.empty\", \"attributes.e\", \"attributes.j\","
                + " \"attributes\"]}],"
                + " \"order_by\": [{\"tag\": \"d\", \"field\": \"id\"}]}";
        String[] keys = {
            "attributes.x",
            "attributes.s",
            "attributes.big",
            "attributes.none",
            "attributes.empty",
            "attributes.e",
            "attributes.j",
            "attributes"
        };
        // the pages decode the database's JSON and encode it again; the streams copy its text: the same values
        JsonNode page = reader().post("/api/v1/query", query).json().get("items");
        List<JsonNode> lines = lines("/api/v1/query/stream", query);
        List<JsonNode> columns = columnLines(query);
        assertEquals(2, page.size());
        assertEquals(2, lines.size());
        assertEquals(2, columns.size(), "a header and one block");
        for (int row = 0; row < 2; row++) {
            for (int k = 0; k < keys.length; k++) {
                JsonNode expected = page.get(row).get("d").get(keys[k]);
                assertEquals(expected, lines.get(row).get("d").get(keys[k]), keys[k] + " of row " + row);
                assertEquals(expected, columns.get(1).get(k).get(row), keys[k] + " of row " + row);
            }
        }
        assertEquals(mixed.get("s"), columns.get(1).get(1).get(0).asString());
        assertEquals(123456789012345678L, columns.get(1).get(2).get(0).asLong());
        assertTrue(columns.get(1).get(3).get(0).isNull(), "a JSON null is null");
        assertTrue(columns.get(1).get(3).get(1).isNull(), "a key the node lacks is null");
        assertEquals(-0.125, columns.get(1).get(0).get(1).asDouble());
        assertEquals(7, columns.get(1).get(1).get(1).asInt(), "a column may mix types");
        assertEquals("", columns.get(1).get(5).get(0).asString());
        assertEquals("\"quoted\"", columns.get(1).get(5).get(1).get(1).asString());
        assertEquals(mixed.get("j"), columns.get(1).get(6).get(0).asString(), "a string that looks like JSON");
        assertEquals("{}", lines.get(1).get("d").get("attributes.j").asString());
        // strings as raw UTF-8 after their block's line: the same values, the columns of strings alone so
        List<JsonNode> raw = rawColumnBlocks(query);
        assertEquals(columns, raw);
        assertEquals(
                List.of("attributes.j"),
                rawStringColumns.stream().map(k -> keys[k]).toList(),
                "only the column of strings (and nulls) in every row is raw");
        List<JsonNode> none = columnLines(query.replace("\"mixed\"", "\"no such label\""));
        assertEquals(1, none.size(), "an empty result is the header alone");
        assertEquals(keys.length, none.getFirst().get("columns").size());
    }

    @Test
    void longValuesMakeBlocksOfFewerRowsThatTogetherHoldThemAll() throws IOException {
        String log = "é 🙂 \" \\ a line of a log\n".repeat(100); // 3.0 KB of UTF-8
        List<Node> logs = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            DictData d = new DictData(Map.of("i", i, "log", i + " " + log));
            d.setLabel("long logs");
            logs.add(d);
        }
        engine.graph().storeAll(logs);
        String query = "{\"path\": [{\"tag\": \"d\", \"entity\": \"node\", \"filters\": {\"label\": \"long logs\"},"
                + " \"project\": [\"attributes.i\", \"attributes.log\"]}],"
                + " \"order_by\": [{\"tag\": \"d\", \"field\": \"id\"}]}";
        for (List<JsonNode> lines : List.of(columnLines(query), rawColumnBlocks(query))) {
            List<JsonNode> blocks = lines.subList(1, lines.size());
            int perBlock = ColumnBlocks.BLOCK_BYTES / log.getBytes(StandardCharsets.UTF_8).length + 1;
            assertTrue(blocks.size() >= 400 / perBlock, blocks.size() + " blocks of 1.2 MB of logs");
            List<String> read = new ArrayList<>();
            for (JsonNode block : blocks) {
                assertTrue(block.get(0).size() <= perBlock, block.get(0).size() + " rows of logs in a block");
                for (int r = 0; r < block.get(0).size(); r++) {
                    assertEquals(read.size(), block.get(0).get(r).asInt());
                    read.add(block.get(1).get(r).asString());
                }
            }
            assertEquals(400, read.size());
            for (int i = 0; i < 400; i++) {
                assertEquals(i + " " + log, read.get(i));
            }
        }
    }

    /** The columns of the last block {@link #rawColumnBlocks} read as raw strings. */
    private List<Integer> rawStringColumns = List.of();

    /**
     * The answer of /query/columns asked for with Accept: application/x-cairn-columns, read as its reference
     * says, each column of raw strings made an array of strings as in the JSON lines.
     */
    private List<JsonNode> rawColumnBlocks(String query) throws IOException {
        Api api = reader();
        HttpResponse<InputStream> r = api.stream(api.request("/api/v1/query/columns")
                .header("Content-Type", "application/json")
                .header("Accept", "application/x-cairn-columns")
                .POST(HttpRequest.BodyPublishers.ofString(query)));
        assertEquals(200, r.statusCode());
        assertEquals(
                "application/x-cairn-columns",
                r.headers().firstValue("Content-Type").orElseThrow());
        byte[] body;
        try (InputStream in = r.body()) {
            body = in.readAllBytes();
        }
        List<JsonNode> lines = new ArrayList<>();
        int at = 0;
        while (at < body.length) {
            int end = at;
            while (body[end] != '\n') {
                end++;
            }
            JsonNode line = Api.json().readTree(new String(body, at, end - at, StandardCharsets.UTF_8));
            at = end + 1;
            if (line.isArray()) {
                List<Integer> strings = new ArrayList<>();
                tools.jackson.databind.node.ArrayNode block = Api.json().createArrayNode();
                for (int k = 0; k < line.size(); k++) {
                    JsonNode column = line.get(k);
                    if (!column.isObject()) {
                        block.add(column);
                        continue;
                    }
                    strings.add(k);
                    tools.jackson.databind.node.ArrayNode values = block.addArray();
                    for (JsonNode length : column.get("utf8")) {
                        if (length.isNull()) {
                            values.addNull();
                        } else {
                            values.add(new String(body, at, length.asInt(), StandardCharsets.UTF_8));
                            at += length.asInt();
                        }
                    }
                }
                rawStringColumns = strings;
                line = block;
            }
            lines.add(line);
        }
        return lines;
    }

    private List<JsonNode> columnLines(String query) throws IOException {
        return lines("/api/v1/query/columns", query);
    }

    private List<JsonNode> lines(String endpoint, String query) throws IOException {
        Api api = reader();
        HttpResponse<InputStream> r = api.stream(api.request(endpoint)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(query)));
        assertEquals(200, r.statusCode());
        assertEquals(
                "application/x-ndjson", r.headers().firstValue("Content-Type").orElseThrow());
        List<JsonNode> lines = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                lines.add(Api.json().readTree(line));
            }
        }
        return lines;
    }

    @Test
    void badQueriesAreRefusedNamingWhatIsWrong() throws IOException {
        Api api = reader();
        Api.Response field = api.post(
                "/api/v1/query", "{\"path\": [{\"tag\": \"n\", \"entity\": \"node\", \"project\": [\"colour\"]}]}");
        assertEquals(400, field.status(), field.toString());
        assertTrue(field.json().get("detail").asString().contains("unknown field 'colour'"), field.toString());
        assertTrue(field.json().get("detail").asString().contains("node_type"), field.toString());
        Api.Response op = api.post(
                "/api/v1/query/stream",
                "{\"path\": [{\"tag\": \"n\", \"entity\": \"node\", \"filters\": {\"id\": {\"near\": 1}}}]}");
        assertEquals(400, op.status(), op.toString());
        assertTrue(op.json().get("detail").asString().contains("unknown operator 'near'"), op.toString());
        Api.Response columns = api.post(
                "/api/v1/query/columns",
                "{\"path\": [{\"tag\": \"n\", \"entity\": \"node\", \"project\": [\"colour\"]}]}");
        assertEquals(400, columns.status(), columns.toString());
        assertTrue(columns.json().get("detail").asString().contains("unknown field 'colour'"), columns.toString());
        HttpResponse<InputStream> raw = api.stream(api.request("/api/v1/query/columns")
                .header("Content-Type", "application/json")
                .header("Accept", "application/x-cairn-columns")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"path\": [{\"tag\": \"n\", \"entity\": \"node\", \"project\": [\"colour\"]}]}")));
        assertEquals(400, raw.statusCode());
        try (InputStream in = raw.body()) {
            String problem = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(problem.contains("unknown field 'colour'"), problem);
        }
        Api.Response malformed = api.post("/api/v1/query", "{\"path\": [");
        assertEquals(400, malformed.status(), malformed.toString());
        assertTrue(malformed.json().get("detail").asString().contains("not valid JSON"), malformed.toString());
        Api.Response noPath = api.post("/api/v1/query", "{}");
        assertEquals(400, noPath.status(), noPath.toString());
        String next = api.post("/api/v1/query?limit=1", INTS).json().get("next").asString();
        Api.Response otherBody = api.post(
                "/api/v1/query?cursor=" + next,
                "{\"path\": [{\"tag\": \"n\", \"entity\": \"node\", \"project\": [\"uuid\"]}]}");
        assertEquals(400, otherBody.status(), otherBody.toString());
        Api.Response limit = api.post("/api/v1/query?limit=5000", INTS);
        assertEquals(400, limit.status(), limit.toString());
    }

    @Test
    void aNulInAFiltersValueIsRefusedSayingWhyOnce() {
        String nul = "{\"path\": [{\"tag\": \"n\", \"entity\": \"node\", \"filters\": {\"label\": \"a\\u0000b\"}}]}";
        for (String path : List.of("/api/v1/query", "/api/v1/query/stream")) {
            Api.Response refused = reader().post(path, nul);
            assertEquals(400, refused.status(), path + ": " + refused);
            String detail = refused.json().get("detail").asString();
            assertTrue(detail.contains("the database refused a value of the query"), path + ": " + detail);
            assertEquals(1, detail.split("refused", -1).length - 1, path + " says why once: " + detail);
            assertFalse(
                    detail.contains("\n"), path + " says it in one line, without the database's context: " + detail);
        }
    }
}
