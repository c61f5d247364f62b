package dev.cairn.e2e.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.e2e.CairnCli;
import dev.cairn.e2e.CairnServerProcess;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/** {@code cairn query}: an expression or the query builder's JSON, as a table, JSON or CSV; bad queries. */
class QueryCommandIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    static Path dataDir;

    static CairnServerProcess server;

    /** The uuids of the Ints of values 1 to 6, labelled q1 to q6 (index = value - 1). */
    static final List<String> INTS = new ArrayList<>();

    @TempDir
    Path home;

    @BeforeAll
    static void startServer() {
        server = CairnServerProcess.builder("cli-query", dataDir)
                .database(db)
                .broker(broker)
                .start()
                .awaitReady();
        for (int value = 1; value <= 6; value++) {
            HttpResponse<String> r = server.send(server.request("/api/v1/nodes", server.adminToken())
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(
                            "{\"type\": \"int\", \"value\": " + value + ", \"label\": \"q" + value + "\"}"))
                    .build());
            assertEquals(201, r.statusCode(), r.body());
            INTS.add(JSON.readTree(r.body()).get("uuid").asString());
        }
        HttpResponse<String> other = server.send(server.request("/api/v1/nodes", server.adminToken())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"type\": \"float\", \"value\": 9.5, \"label\": \"q9\"}"))
                .build());
        assertEquals(201, other.statusCode(), other.body());
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    CairnCli cairn() {
        return CairnCli.against(home, server.url(), server.adminToken());
    }

    @Test
    void anExpressionPrintsATableJsonAndCsv() {
        String expression = "Int where attributes.value > 3 and label like 'q%'";
        CairnCli.Run table = cairn().run("query", expression, "--project", "uuid,label,attributes.value");
        CairnCli.Run json = cairn().run("query", expression, "--project", "uuid,attributes.value", "--json");
        CairnCli.Run csv = cairn().run("query", expression, "--project", "label,attributes.value", "--csv");
        assertEquals(0, table.exit(), table.toString());
        assertEquals(0, json.exit(), json.toString());
        assertEquals(0, csv.exit(), csv.toString());
        List<String> lines = table.out().lines().toList();
        assertAll(
                () -> assertEquals(4, lines.size(), table.toString()),
                () -> assertTrue(lines.get(0).startsWith("UUID"), table.toString()),
                () -> assertTrue(lines.get(1).startsWith(INTS.get(3)), table.toString()),
                () -> assertTrue(lines.get(3).endsWith("6"), table.toString()),
                () -> assertEquals(3, json.json().size(), json.toString()),
                () -> assertEquals(
                        INTS.get(3), json.json().get(0).get("n").get("uuid").asString()),
                () -> assertEquals(
                        4, json.json().get(0).get("n").get("attributes.value").asInt()),
                () -> assertEquals("label,attributes.value\nq4,4\nq5,5\nq6,6\n", csv.out(), csv.toString()));

        CairnCli.Run notEqual = cairn().run(
                        "query",
                        "Int where attributes.value != 1 and attributes.value <= 2",
                        "--project",
                        "label",
                        "--csv");
        assertEquals("label\nq2\n", notEqual.out(), notEqual.toString());
        CairnCli.Run in = cairn().run("query", "node where label in [\"q1\", \"q9\"]", "--project", "label", "--csv");
        assertEquals("label\nq1\nq9\n", in.out(), in.toString());
        CairnCli.Run limited = cairn().run("query", "data", "--project", "label", "--csv", "--limit", "2");
        assertEquals("label\nq1\nq2\n", limited.out(), limited.toString());
        CairnCli.Run none = cairn().run("query", "Int where attributes.value > 100");
        assertEquals(0, none.exit(), none.toString());
        assertEquals("", none.out(), none.toString());
    }

    @Test
    void theQueryBuildersJsonComesFromAFileOrStandardInput() throws Exception {
        String query = """
                {"path": [{"tag": "i", "entity": "node", "node_type": "data.core.int.Int.",
                           "filters": {"attributes.value": {"<": 3}}, "project": ["uuid", "attributes.value"]}],
                 "order_by": [{"tag": "i", "field": "id", "order": "desc"}]}""";
        Path file = home.resolve("q.json");
        Files.createDirectories(home);
        Files.writeString(file, query, UTF_8);
        CairnCli.Run fromFile = cairn().run("query", "--file", "q.json", "--json");
        CairnCli.Run fromStdin = cairn().run(Duration.ofMinutes(1), query, "query", "--file", "-", "--csv");
        assertEquals(0, fromFile.exit(), fromFile.toString());
        assertEquals(0, fromStdin.exit(), fromStdin.toString());
        JsonNode rows = fromFile.json();
        assertAll(
                () -> assertEquals(2, rows.size(), fromFile.toString()),
                () -> assertEquals(INTS.get(1), rows.get(0).get("i").get("uuid").asString()),
                () -> assertEquals(
                        1, rows.get(1).get("i").get("attributes.value").asInt()),
                () -> assertEquals(
                        "uuid,attributes.value\n" + INTS.get(1) + ",2\n" + INTS.get(0) + ",1\n",
                        fromStdin.out(),
                        fromStdin.toString()));
    }

    @Test
    void aBadExpressionOrQueryIsExitTwoSayingWhatWasWrong() throws Exception {
        CairnCli.Run noWhere = cairn().run("query", "Int wher attributes.value > 3");
        CairnCli.Run badField = cairn().run("query", "Int where size > 3");
        CairnCli.Run noValue = cairn().run("query", "Int where label =");
        CairnCli.Run badList = cairn().run("query", "Int where label in q1");
        Files.createDirectories(home);
        Files.writeString(home.resolve("bad.json"), "{\"path\": [{\"tag\": \"n\", \"entity\": \"nodes\"}]}");
        Files.writeString(home.resolve("broken.json"), "{\"path\": [");
        CairnCli.Run serverRefused = cairn().run("query", "--file", "bad.json");
        CairnCli.Run notJson = cairn().run("query", "--file", "broken.json");
        CairnCli.Run nothing = cairn().run("query");
        assertAll(
                () -> assertEquals(2, noWhere.exit(), noWhere.toString()),
                () -> assertTrue(noWhere.err().contains("expected 'where'"), noWhere.toString()),
                () -> assertEquals(2, badField.exit(), badField.toString()),
                () -> assertTrue(badField.err().contains("unknown field 'size'"), badField.toString()),
                () -> assertEquals(2, noValue.exit(), noValue.toString()),
                () -> assertTrue(noValue.err().contains("needs a value"), noValue.toString()),
                () -> assertEquals(2, badList.exit(), badList.toString()),
                () -> assertTrue(badList.err().contains("'in' takes a list"), badList.toString()),
                () -> assertEquals(2, serverRefused.exit(), serverRefused.toString()),
                () -> assertTrue(serverRefused.err().contains("nodes"), serverRefused.toString()),
                () -> assertEquals(2, notJson.exit(), notJson.toString()),
                () -> assertTrue(notJson.err().contains("not JSON"), notJson.toString()),
                () -> assertEquals(2, nothing.exit(), nothing.toString()));
    }
}
