package dev.cairn.e2e.cli;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
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
import dev.cairn.e2e.DemoOutput;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * {@code cairn node ...} and {@code cairn calcjob ...} against a server that ran the demo: what they print,
 * what they change on the server, byte-exact files, graphs, deletion, and what bad input exits with.
 */
class NodeCommandsIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    static Path dataDir;

    static CairnServerProcess server;

    /** The demo's calculation job that ran (not one taken from the cache): its PK and attributes. */
    static JsonNode job;

    @TempDir
    Path home;

    @BeforeAll
    static void startServer() {
        server = CairnServerProcess.builder("cli-node", dataDir)
                .database(db)
                .broker(broker)
                .setting("cairn.demo", "true")
                .start()
                .awaitReady();
        server.awaitOutput(DemoOutput.END, Duration.ofMinutes(3));
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

    JsonNode job() {
        if (job == null) {
            CairnCli.Run jobs = cairn().run("query", "CalcJobNode", "--project", "id,uuid,attributes", "--json");
            assertEquals(0, jobs.exit(), jobs.toString());
            for (JsonNode row : jobs.json()) {
                if (row.get("n").get("attributes").has("job_id")) {
                    job = row.get("n");
                    break;
                }
            }
            assertTrue(job != null, "the demo ran a calculation job: " + jobs);
        }
        return job;
    }

    String jobPk() {
        return job().get("id").asString();
    }

    /** The PK of a calculation job of the demo that took its results from the cache (never submitted). */
    String cachedJobPk() {
        CairnCli.Run jobs = cairn().run("query", "CalcJobNode", "--project", "id,attributes", "--json");
        assertEquals(0, jobs.exit(), jobs.toString());
        for (JsonNode row : jobs.json()) {
            if (!row.get("n").get("attributes").has("job_id")) {
                return row.get("n").get("id").asString();
            }
        }
        throw new AssertionError("the demo took a calculation job from the cache: " + jobs);
    }

    static JsonNode serverNode(String uuid) {
        return JSON.readTree(server.get("/api/v1/nodes/" + uuid).body());
    }

    HttpResponse<String> post(String path, String contentType, byte[] body) {
        return server.send(server.request(path, server.adminToken())
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build());
    }

    String storeInt(long value) {
        HttpResponse<String> r = post(
                "/api/v1/nodes", "application/json", ("{\"type\": \"int\", \"value\": " + value + "}").getBytes(UTF_8));
        assertEquals(201, r.statusCode(), r.body());
        return JSON.readTree(r.body()).get("uuid").asString();
    }

    @Test
    void showPrintsTheNodeWithItsPkAndLinksAndJsonKeepsTheServersFields() {
        CairnCli.Run show = cairn().run("node", "show", jobPk());
        CairnCli.Run json =
                cairn().run("node", "show", job().get("uuid").asString().substring(0, 23), "--json");
        assertEquals(0, show.exit(), show.toString());
        assertEquals(0, json.exit(), json.toString());
        assertAll(
                () -> assertTrue(show.out().contains("CalcJobNode (arithmetic.add)"), show.toString()),
                () -> assertTrue(show.out().contains(job().get("uuid").asString()), show.toString()),
                () -> assertTrue(show.out().contains("Incoming links (4)"), show.toString()),
                () -> assertTrue(show.out().contains("retrieved"), show.toString()),
                () -> assertTrue(show.out().contains("localhost"), "the computer: " + show),
                () -> assertEquals(
                        job().get("id").asLong(), json.json().get("pk").asLong()),
                () -> assertEquals(
                        job().get("uuid").asString(), json.json().get("uuid").asString()),
                () -> assertEquals(
                        "process.calculation.calcjob.CalcJobNode.",
                        json.json().get("node_type").asString()),
                () -> assertEquals(4, json.json().get("incoming").size(), json.toString()),
                () -> assertEquals(3, json.json().get("outgoing").size(), json.toString()),
                () -> assertTrue(json.json().get("outgoing").get(0).get("node").has("pk"), json.toString()));

        CairnCli.Run two = cairn().run("node", "show", jobPk(), "1", "--json");
        assertEquals(0, two.exit(), two.toString());
        assertEquals(2, two.json().size(), "two refs, an array of two: " + two);
    }

    @Test
    void attributesExtrasLabelAndDescriptionAreShownAndSetOnTheServer() {
        String uuid = storeInt(42);
        CairnCli.Run attributes = cairn().run("node", "attributes", uuid);
        assertEquals(0, attributes.exit(), attributes.toString());
        assertEquals(42, attributes.json().get("value").asInt());

        CairnCli.Run some = cairn().run("node", "attributes", jobPk(), "--keys", "process_state", "exit_status");
        assertEquals(0, some.exit(), some.toString());
        assertEquals(
                List.of("exit_status", "process_state"),
                some.json().propertyNames().stream().sorted().toList());
        assertEquals("finished", some.json().get("process_state").asString());

        HttpResponse<String> patched = server.send(server.request("/api/v1/nodes/" + uuid, server.adminToken())
                .header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"extras\": {\"checked\": true, \"n\": 3}}"))
                .build());
        assertEquals(200, patched.statusCode(), patched.body());
        CairnCli.Run extras = cairn().run("node", "extras", uuid, "--keys", "n");
        assertEquals(0, extras.exit(), extras.toString());
        assertEquals("{\"n\":3}", extras.json().toString());

        CairnCli.Run setLabel = cairn().run("node", "label", uuid, "the answer");
        CairnCli.Run setDescription = cairn().run("node", "description", uuid, "what it is, in full");
        assertEquals(0, setLabel.exit(), setLabel.toString());
        assertEquals(0, setDescription.exit(), setDescription.toString());
        JsonNode stored = serverNode(uuid);
        assertEquals("the answer", stored.get("label").asString());
        assertEquals("what it is, in full", stored.get("description").asString());
        CairnCli.Run label = cairn().run("node", "label", uuid);
        CairnCli.Run description = cairn().run("node", "description", uuid, "--json");
        assertEquals("the answer\n", label.out());
        assertEquals(
                "what it is, in full", description.json().get("description").asString());
    }

    @Test
    void repoListsCatsAndDumpsFilesByteForByte() throws Exception {
        byte[] binary = new byte[70_000];
        for (int i = 0; i < binary.length; i++) {
            binary[i] = (byte) (i * 31 + i / 256);
        }
        String text = "line one\nline two: ünïcödé\n";
        String boundary = "cairnboundary7788";
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        part(body, boundary, "data.bin", binary);
        part(body, boundary, "sub/notes.txt", text.getBytes(UTF_8));
        body.write(("--" + boundary + "--\r\n").getBytes(UTF_8));
        HttpResponse<String> uploaded =
                post("/api/v1/nodes/files", "multipart/form-data; boundary=" + boundary, body.toByteArray());
        assertEquals(201, uploaded.statusCode(), uploaded.body());
        String uuid = JSON.readTree(uploaded.body()).get("uuid").asString();

        CairnCli.Run ls = cairn().run("node", "repo", "ls", uuid);
        CairnCli.Run lsSub = cairn().run("node", "repo", "ls", uuid, "sub");
        CairnCli.Run cat = cairn().run("node", "repo", "cat", uuid, "sub/notes.txt");
        assertAll(
                () -> assertEquals("data.bin\nsub/\n", ls.out(), ls.toString()),
                () -> assertEquals("notes.txt\n", lsSub.out(), lsSub.toString()),
                () -> assertEquals(text, cat.out(), cat.toString()));

        Path dest = home.resolve("dump");
        CairnCli.Run dump = cairn().run("node", "repo", "dump", uuid, dest.toString());
        assertEquals(0, dump.exit(), dump.toString());
        assertArrayEquals(binary, Files.readAllBytes(dest.resolve("data.bin")));
        assertArrayEquals(text.getBytes(UTF_8), Files.readAllBytes(dest.resolve("sub/notes.txt")));

        CairnCli.Run again = cairn().run("node", "repo", "dump", uuid, dest.toString());
        assertEquals(2, again.exit(), again.toString());
        assertTrue(again.err().contains("not empty"), again.toString());

        CairnCli.Run missing = cairn().run("node", "repo", "cat", uuid, "no-such-file");
        assertEquals(3, missing.exit(), missing.toString());
    }

    private static void part(ByteArrayOutputStream body, String boundary, String name, byte[] content)
            throws Exception {
        body.write(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + name
                        + "\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                .getBytes(UTF_8));
        body.write(content);
        body.write("\r\n".getBytes(UTF_8));
    }

    @Test
    void graphWritesDotAndSvgThroughGraphviz() throws Exception {
        CairnCli.Run dot = cairn().run("node", "graph", jobPk());
        assertEquals(0, dot.exit(), dot.toString());
        assertTrue(dot.out().startsWith("digraph provenance {"), dot.toString());
        String job = job().get("uuid").asString();
        assertTrue(
                dot.out().contains("\"" + job + "\" [label=\"CalcJobNode (arithmetic.add)\\nPK " + jobPk()),
                dot.toString());
        assertTrue(dot.out().contains("[label=\"INPUT_CALC\\nx\""), dot.toString());
        assertTrue(dot.out().contains("[label=\"CREATE\\nretrieved\""), dot.toString());

        CairnCli.Run inputsOnly =
                cairn().run("node", "graph", jobPk(), "--descendant-depth", "0", "--link-types", "input_calc");
        assertEquals(0, inputsOnly.exit(), inputsOnly.toString());
        assertFalse(inputsOnly.out().contains("CREATE"), inputsOnly.toString());
        assertTrue(inputsOnly.out().contains("INPUT_CALC"), inputsOnly.toString());

        CairnCli.Run svg = cairn().run("node", "graph", jobPk(), "--format", "svg", "-o", "graph.svg");
        assertEquals(0, svg.exit(), svg.toString());
        String drawn = Files.readString(home.resolve("graph.svg"));
        assertTrue(drawn.contains("<svg"), drawn);
        assertTrue(drawn.contains("CalcJobNode (arithmetic.add)"), drawn);
    }

    @Test
    void calcjobListsAndPrintsItsFilesAndResults() {
        CairnCli.Run inputls = cairn().run("calcjob", "inputls", jobPk());
        CairnCli.Run inputcat = cairn().run("calcjob", "inputcat", jobPk(), "aiida.in");
        CairnCli.Run inputcatDefault = cairn().run("calcjob", "inputcat", jobPk());
        CairnCli.Run script = cairn().run("calcjob", "inputcat", jobPk(), "_cairn_submit.sh");
        CairnCli.Run cachedInputls = cairn().run("calcjob", "inputls", cachedJobPk());
        CairnCli.Run outputls = cairn().run("calcjob", "outputls", jobPk());
        CairnCli.Run outputcat = cairn().run("calcjob", "outputcat", jobPk(), "aiida.out");
        CairnCli.Run outputcatDefault = cairn().run("calcjob", "outputcat", jobPk());
        CairnCli.Run res = cairn().run("calcjob", "res", jobPk());
        CairnCli.Run resKey = cairn().run("calcjob", "res", jobPk(), "result");
        CairnCli.Run noKey = cairn().run("calcjob", "res", jobPk(), "energy");
        CairnCli.Run gotoComputer = cairn().run("calcjob", "gotocomputer", jobPk(), "--print");
        CairnCli.Run notAJob = cairn().run("calcjob", "res", "1");
        assertAll(
                () -> assertEquals(0, inputls.exit(), inputls.toString()),
                () -> assertEquals("_cairn_submit.sh\naiida.in\n", inputls.out(), inputls.toString()),
                () -> assertEquals(0, inputcat.exit(), inputcat.toString()),
                () -> assertTrue(inputcat.out().matches("echo \\$\\(\\(\\d+ \\+ \\d+\\)\\)\n"), inputcat.toString()),
                () -> assertEquals(inputcat.out(), inputcatDefault.out(), "the main input: " + inputcatDefault),
                () -> assertTrue(script.out().contains("/bin/bash < aiida.in > aiida.out"), script.toString()),
                () -> assertEquals(0, cachedInputls.exit(), cachedInputls.toString()),
                () -> assertEquals("", cachedInputls.out(), cachedInputls.toString()),
                () -> assertTrue(cachedInputls.err().contains("came from the cache"), cachedInputls.toString()),
                () -> assertEquals("aiida.out\n", outputls.out(), outputls.toString()),
                () -> assertEquals(0, outputcat.exit(), outputcat.toString()),
                () -> assertEquals(outputcat.out(), outputcatDefault.out(), outputcatDefault.toString()),
                () -> assertEquals(0, res.exit(), res.toString()),
                () -> assertEquals(
                        outputcat.out().strip(), res.json().get("result").asString(), res.toString()),
                () -> assertEquals(outputcat.out().strip(), resKey.out().strip(), resKey.toString()),
                () -> assertEquals(3, noKey.exit(), noKey.toString()),
                () -> assertTrue(noKey.err().contains("result"), "the keys there are: " + noKey),
                () -> assertEquals(
                        "cd '" + job().get("attributes").get("remote_workdir").asString() + "'\n",
                        gotoComputer.out(),
                        gotoComputer.toString()),
                () -> assertEquals(2, notAJob.exit(), notAJob.toString()),
                () -> assertTrue(notAJob.err().contains("not a calculation job"), notAJob.toString()));
    }

    @Test
    void processShowListsTheFilesAJobSentAndRetrievedAsTheWebPageDoes() {
        CairnCli.Run show = cairn().run("process", "show", jobPk());
        CairnCli.Run cached = cairn().run("process", "show", cachedJobPk());
        assertAll(
                () -> assertEquals(0, show.exit(), show.toString()),
                () -> assertTrue(
                        show.out()
                                .matches(
                                        "(?s).*\nFiles sent +Size\n_cairn_submit\\.sh +[\\d.]+ \\w*B\naiida\\.in +[\\d.]+ \\w*B\n.*"),
                        show.toString()),
                () -> assertTrue(
                        show.out().matches("(?s).*\nFiles retrieved +Size\naiida\\.out +[\\d.]+ \\w*B\n.*"),
                        show.toString()),
                () -> assertEquals(0, cached.exit(), cached.toString()),
                () -> assertTrue(cached.out().contains("\nFiles sent: none yet"), cached.toString()));
    }

    @Test
    void deleteListsWhatWouldGoThenAsksForForceThenDeletes() {
        String uuid = storeInt(7);
        CairnCli.Run dryRun = cairn().run("node", "delete", uuid, "--dry-run");
        assertEquals(0, dryRun.exit(), dryRun.toString());
        assertTrue(dryRun.out().contains(uuid), dryRun.toString());
        assertTrue(dryRun.err().contains("1 node would be deleted (1 Int)"), dryRun.toString());
        assertEquals(200, server.get("/api/v1/nodes/" + uuid).statusCode(), "a dry run deletes nothing");

        CairnCli.Run unasked = cairn().run("node", "delete", uuid);
        assertEquals(2, unasked.exit(), unasked.toString());
        assertTrue(unasked.err().contains("--force"), unasked.toString());
        assertEquals(200, server.get("/api/v1/nodes/" + uuid).statusCode(), "no --force, nothing deleted");

        CairnCli.Run deleted = cairn().run("node", "delete", uuid, "--force", "--json");
        assertEquals(0, deleted.exit(), deleted.toString());
        assertEquals(1, deleted.json().get("count").asLong(), deleted.toString());
        assertEquals(404, server.get("/api/v1/nodes/" + uuid).statusCode(), "deleted");

        CairnCli.Run input = cairn().run("node", "delete", job().get("uuid").asString(), "--dry-run", "--json");
        assertEquals(0, input.exit(), input.toString());
        assertTrue(input.json().get("count").asLong() >= 5, "the job takes its caller and outputs: " + input);
    }

    @Test
    void rehashStoresTheHashComputedAgainAndAllNeedsForce() throws Exception {
        String uuid = storeInt(11);
        String right = serverNode(uuid).get("hash").asString();
        try (Connection c = db.connect();
                PreparedStatement s = c.prepareStatement("UPDATE node SET hash = ? WHERE uuid = ?::uuid")) {
            s.setString(1, "0".repeat(64));
            s.setString(2, uuid);
            assertEquals(1, s.executeUpdate());
        }
        CairnCli.Run rehash = cairn().run("node", "rehash", uuid, "--json");
        assertEquals(0, rehash.exit(), rehash.toString());
        assertTrue(rehash.json().get(0).get("changed").asBoolean(), rehash.toString());
        assertEquals(right, rehash.json().get(0).get("hash").asString());
        assertEquals(right, serverNode(uuid).get("hash").asString(), "the server holds the hash again");

        CairnCli.Run unforced = cairn().run("node", "rehash", "--all");
        assertEquals(2, unforced.exit(), unforced.toString());
        assertTrue(unforced.err().contains("--force"), unforced.toString());
        CairnCli.Run both = cairn().run("node", "rehash", uuid, "--all");
        assertEquals(2, both.exit(), both.toString());

        CairnCli.Run all = cairn().run("node", "rehash", "--all", "--force");
        assertEquals(0, all.exit(), all.toString());
        long nodes =
                cairn().run("query", "node", "--project", "id", "--json").json().size();
        assertTrue(all.err().contains(nodes + " nodes rehashed"), "every node: " + all);
    }

    @Test
    void anUnknownNodeIsExitThreeAndAMalformedOneExitTwo() {
        CairnCli.Run unknownPk = cairn().run("node", "show", "987654321");
        CairnCli.Run unknownUuid = cairn().run("node", "attributes", "00000000-0000-7000-8000-000000000000");
        CairnCli.Run malformed = cairn().run("node", "show", "not-a-node!");
        CairnCli.Run pkOnly = cairn().run("node", "show", "pk:987654321");
        assertAll(
                () -> assertEquals(3, unknownPk.exit(), unknownPk.toString()),
                () -> assertTrue(unknownPk.err().contains("no node has the PK 987654321"), unknownPk.toString()),
                () -> assertEquals(3, unknownUuid.exit(), unknownUuid.toString()),
                () -> assertEquals(3, pkOnly.exit(), pkOnly.toString()),
                () -> assertEquals(2, malformed.exit(), malformed.toString()),
                () -> assertTrue(malformed.err().contains("'not-a-node!' is not a node"), malformed.toString()));
    }
}
