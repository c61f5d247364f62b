package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * Schemathesis against the server jar, as a client that knows only the OpenAPI document: every
 * operation, every check ({@code --checks all}), once with a read, a submit and an admin token. It
 * must find no 5xx, no status, content type, header or body the document does not list, no valid
 * request refused and no invalid one taken ({@code src/test/python/schemathesis.toml} says what
 * counts as which). The server runs on a database and vhost of its own, with the demo's processes,
 * computer and code, a few data nodes, a group, a comment and a second user in it, so that
 * operations find something; schemathesis may delete and kill whatever it finds there.
 *
 * <p>Bounds, for about a minute per role on two cores: all four phases (the stateful one chains
 * operations by the links schemathesis infers from the response schemas and path parameters), at
 * most {@value #MAX_EXAMPLES} generated cases per operation in fuzzing, one worker (schemathesis's
 * parallel workers share Hypothesis, whose lambda introspection failed once under two threads); the read
 * and submit runs side by side, as two processes, the admin's after them. The longest class of the suite,
 * and its server's alone: it runs in the {@link SecondLane}.
 */
@SecondLane
class SchemathesisIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    static final int MAX_EXAMPLES = 10;

    /** A longer hunt than CI's: {@code CAIRN_TEST_SCHEMATHESIS_EXAMPLES=200} generates that many per operation. */
    private static final int EXAMPLES = Integer.parseInt(
            System.getenv().getOrDefault("CAIRN_TEST_SCHEMATHESIS_EXAMPLES", Integer.toString(MAX_EXAMPLES)));

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    Path dataDir;

    @Test
    void findsNothingThatBreaksTheDocumentWithAReadASubmitAndAnAdminToken() {
        Path schemathesis = PythonTools.schemathesis();
        Path config = PythonTools.sources().resolve("schemathesis.toml");
        try (CairnServerProcess server = CairnServerProcess.builder("schemathesis", dataDir)
                .database(db)
                .broker(broker)
                .setting("cairn.demo", "true")
                .start()
                .awaitReady()) {
            server.awaitOutput(DemoOutput.END, Duration.ofMinutes(3));
            String admin = server.adminToken();
            seed(server, admin);
            String read = token(server, admin, "read");
            String submit = token(server, admin, "submit");
            // springdoc builds the document at its first request: not within schemathesis's time to load it
            assertEquals(200, server.get("/v3/api-docs", null).statusCode());

            // read and submit side by side (each one thread that waits on the server half its time); admin
            // after both: it may revoke tokens, the other two among them, and delete what the others read
            PythonTools.Started reading = schemathesis(schemathesis, config, server, "read", read);
            PythonTools.Started submitting = schemathesis(schemathesis, config, server, "submit", submit);
            Map<String, PythonTools.Run> runs = new LinkedHashMap<>();
            runs.put("read", reading.await());
            runs.put("submit", submitting.await());
            runs.put(
                    "admin",
                    schemathesis(schemathesis, config, server, "admin", admin).await());
            List<Executable> checks = new ArrayList<>();
            runs.forEach((role, run) -> checks.add(() -> assertEquals(
                    0,
                    run.exit(),
                    "schemathesis with the " + role + " token found failures (" + run.log() + "):\n" + run.output()
                            + server.logTail())));
            assertAll(checks);
        }
    }

    private static PythonTools.Started schemathesis(
            Path schemathesis, Path config, CairnServerProcess server, String role, String token) {
        return PythonTools.start(
                "schemathesis-" + role,
                List.of(
                        schemathesis.toString(),
                        "--config-file",
                        config.toString(),
                        "--no-color",
                        "run",
                        server.url() + "/v3/api-docs",
                        "--checks",
                        "all",
                        "-H",
                        "Authorization: Bearer " + token,
                        "--phases",
                        "examples,coverage,fuzzing,stateful",
                        "--max-examples",
                        Integer.toString(EXAMPLES),
                        "--workers",
                        "1",
                        "--request-timeout",
                        "30"),
                Map.of("NO_COLOR", "1"),
                // about a minute a role on two quiet cores; 150 s for the coverage phase alone at load 15
                Duration.ofMinutes(8L * Math.max(1, EXAMPLES / MAX_EXAMPLES)));
    }

    /** Data for operations to find beside the demo's: nodes of several kinds, a group of them, a comment, a user. */
    private static void seed(CairnServerProcess server, String admin) {
        List<String> nodes = new ArrayList<>();
        for (String node : List.of(
                "{\"type\": \"int\", \"value\": 3, \"label\": \"x\", \"extras\": {\"project\": \"demo\"}}",
                "{\"type\": \"float\", \"value\": 2.5}",
                "{\"type\": \"str\", \"value\": \"hello\"}",
                "{\"type\": \"bool\", \"value\": true}",
                "{\"type\": \"dict\", \"value\": {\"a\": 1, \"b\": [1, 2]}}")) {
            nodes.add(post(server, admin, "/api/v1/nodes", node).get("uuid").asString());
        }
        post(server, admin, "/api/v1/groups", "{\"label\": \"relaxations\", \"description\": \"seeded\"}");
        post(
                server,
                admin,
                "/api/v1/groups/relaxations/nodes",
                "{\"add\": [\"" + String.join("\", \"", nodes) + "\"], \"remove\": []}");
        post(server, admin, "/api/v1/nodes/" + nodes.get(0) + "/comments", "{\"content\": \"checked\"}");
        post(
                server,
                admin,
                "/api/v1/users",
                "{\"email\": \"alice@example.org\", \"firstName\": \"Alice\", \"lastName\": \"Liddell\"}");
    }

    private static String token(CairnServerProcess server, String admin, String role) {
        return post(
                        server,
                        admin,
                        "/api/v1/tokens",
                        "{\"name\": \"schemathesis " + role + "\", \"roles\": [\"" + role + "\"]}")
                .get("secret")
                .asString();
    }

    private static JsonNode post(CairnServerProcess server, String token, String path, String body) {
        HttpResponse<String> response = server.send(server.request(path, token)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
        if (response.statusCode() / 100 != 2) {
            throw new AssertionError(
                    "POST " + path + " " + body + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }
}
