package dev.cairn.api.processes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.api.testing.Multipart;
import dev.cairn.api.testing.Rows;
import dev.cairn.storage.graph.users.UserStore;

/**
 * POST /api/v1/shell-jobs: a command line run as {@code core.shell} on a local computer, its
 * program's code made at the first run and found at the next, a batch all or none, and every
 * refusal leaving nothing behind.
 */
class ShellJobsIT extends ApiTest {

    private static final Duration END = Duration.ofSeconds(60);

    @BeforeEach
    void localhost() {
        localComputer("localhost", dataDir.resolve("work"));
    }

    @Test
    void aCommandRunsWithAFileAndANumberAndItsOutputsComeBack() throws Exception {
        Api submitter = api(token(Role.SUBMIT));
        String file = new Multipart()
                .file("file", "data.txt", "b\na\nc\n".getBytes(StandardCharsets.UTF_8))
                .post(submitter, "/api/v1/nodes/files")
                .json()
                .get("uuid")
                .asString();
        Api.Response r = submitter.post("/api/v1/shell-jobs", """
                {"command": "bash -c 'sort {data} | head -n {n} > first.txt; echo count 3'",
                 "nodes": {"data": {"uuid": "%s"}, "n": 2},
                 "outputs": ["first.txt"],
                 "parsers": {"count": {"regex": "count (\\\\d+)"}}}""".formatted(file));
        assertEquals(201, r.status(), r.toString());
        assertEquals("core.shell", r.json().get("entry_point").asString());
        String uuid = r.json().get("uuid").asString();
        assertEquals("/api/v1/processes/" + uuid, r.header("Location"));

        JsonNode detail = Processes.awaitEnd(admin(), uuid, END);
        assertEquals(0, detail.get("exit_code").get("status").asInt(), detail.toString());
        assertEquals(3, detail.get("outputs").get("count").get("value").asInt());
        String first = detail.get("outputs").get("first_txt").get("uuid").asString();
        assertEquals(
                "a\nb\n",
                admin().get("/api/v1/nodes/" + first + "/files/first.txt").body());
        JsonNode code = admin().get("/api/v1/codes/"
                        + detail.get("inputs").get("code").get("uuid").asString())
                .json();
        assertEquals("bash", code.get("label").asString(), code.toString());
        assertTrue(code.get("executable").asString().endsWith("/bash"), code.toString());

        Api.Response again = submitter.post("/api/v1/shell-jobs", """
                {"command": "bash -c 'echo {x}'", "nodes": {"x": 1.5}}""");
        JsonNode second = Processes.awaitEnd(admin(), again.json().get("uuid").asString(), END);
        assertEquals(
                code.get("uuid").asString(),
                second.get("inputs").get("code").get("uuid").asString(),
                "the code made at the first run is found at the next");
    }

    @Test
    void aBatchLaunchesAllOrNone() throws Exception {
        Rows before = Rows.settled(engine);
        Api.Response refused = admin().post("/api/v1/shell-jobs/batch", """
                {"jobs": [{"command": "echo {x}", "nodes": {"x": 1}},
                          {"command": "echo {y}", "nodes": {"x": 2}}]}""");
        assertEquals(400, refused.status(), refused.toString());
        assertTrue(
                refused.body()
                        .contains("jobs[1]: argument '{y}' has the placeholder {y}, but there is no input nodes.y"),
                refused.body());
        assertEquals(before, Rows.settled(engine), "nothing stored");

        Api.Response launched = admin().post("/api/v1/shell-jobs/batch", """
                {"jobs": [{"command": "echo {x}", "nodes": {"x": 1}}, {"command": "echo {x}", "nodes": {"x": 2}},
                          {"command": "date -u"}]}""");
        assertEquals(201, launched.status(), launched.toString());
        assertEquals(3, launched.json().get("count").asInt());
        List<String> codes = new ArrayList<>();
        for (JsonNode p : launched.json().get("processes")) {
            JsonNode detail = Processes.awaitEnd(admin(), p.get("uuid").asString(), END);
            assertEquals(0, detail.get("exit_code").get("status").asInt(), detail.toString());
            codes.add(detail.get("inputs").get("code").get("uuid").asString());
        }
        assertEquals(codes.get(0), codes.get(1), "one new code for the two jobs that run echo");
    }

    @Test
    void badRequestsAreRefusedNamingTheProblemAndStoreNothing() {
        Rows before = Rows.settled(engine);
        String number = "{\"command\": \"echo\", \"nodes\": {\"n\": 1}}";
        List<List<String>> cases = List.of(
                List.of(
                        "{\"command\": \"no-such-program-cairn {x}\", \"nodes\": {\"x\": 1}}",
                        "command 'no-such-program-cairn' was not found on computer 'localhost'"),
                List.of("{\"command\": \"cat {file}\"}", "placeholder {file}, but there is no input nodes.file"),
                List.of(
                        "{\"command\": \"cat {p}\", \"nodes\": {\"p\": {\"a\": 1}}}",
                        "nodes.p is a DictData, which is neither a file"),
                List.of(
                        "{\"command\": \"cat\", \"nodes\": {\"n\": 1}, \"filenames\": {\"n\": \"n.txt\"}}",
                        "filenames.n: nodes.n is a IntData, not a file or folder"),
                List.of("{\"command\": \"echo 'x\"}", "has a single quote at character 6 that is never closed"),
                List.of("{\"command\": \"echo\", \"computer\": \"moon\"}", "no computer is labelled 'moon'"),
                List.of(
                        "{\"command\": \"echo\", \"metadata\": {\"computer\": \"localhost\"}}",
                        "a shell job runs on the computer of its field 'computer'"),
                List.of(number.replace("\"n\": 1", "\"n\": null"), "is null"));
        for (List<String> c : cases) {
            Api.Response r = admin().post("/api/v1/shell-jobs", c.get(0));
            assertEquals(400, r.status(), c.get(0) + " -> " + r);
            assertTrue(r.body().contains(c.get(1)), "expected '" + c.get(1) + "' in " + r.body());
        }
        assertEquals(before, Rows.settled(engine), "nothing stored");
        assertEquals(
                403, api(token(Role.READ)).post("/api/v1/shell-jobs", number).status());
    }

    @Test
    void jobsAndProcessesLaunchedInAClientsWorkflowAreItsCallsAndDieWithIt() throws Exception {
        Api submitter = api(token(Role.SUBMIT));
        String flow = openWorkflow(submitter);
        Api.Response job = submitter.post("/api/v1/shell-jobs", """
                {"command": "echo {x}", "nodes": {"x": 1}, "caller": "%s"}""".formatted(flow));
        assertEquals(201, job.status(), job.toString());
        assertEquals(flow, job.json().get("caller").asString());
        Api.Response launched = submitter.post("/api/v1/processes/batch", """
                {"launches": [{"entry_point": "arithmetic.add_multiply", "inputs": {"x": 1, "y": 2, "z": 3},
                               "caller": "%s"}]}""".formatted(flow));
        assertEquals(201, launched.status(), launched.toString());
        String sleeper = submitter
                .post("/api/v1/shell-jobs", """
                        {"command": "sleep 120", "caller": "%s"}""".formatted(flow))
                .json()
                .get("uuid")
                .asString();

        JsonNode echo = Processes.awaitEnd(admin(), job.json().get("uuid").asString(), END);
        assertEquals(0, echo.get("exit_code").get("status").asInt(), echo.toString());
        Processes.awaitEnd(
                admin(), launched.json().get("processes").get(0).get("uuid").asString(), END);
        Processes.awaitState(admin(), sleeper, "waiting", END);
        JsonNode called = admin().get("/api/v1/processes/" + flow).json().get("called");
        assertEquals(3, called.size(), called.toString());
        List<String> links = new ArrayList<>();
        admin().get("/api/v1/nodes/" + flow + "/links/outgoing")
                .json()
                .get("items")
                .forEach(l -> links.add(
                        l.get("type").asString() + " " + l.get("label").asString()));
        assertEquals(
                List.of("call_calc CALL", "call_calc CALL", "call_work CALL"),
                links.stream().sorted().toList());

        assertEquals(
                200, submitter.post("/api/v1/processes/" + flow + "/kill", "{}").status());
        JsonNode killed = Processes.awaitEnd(admin(), sleeper, END);
        assertEquals("killed", killed.get("process").get("state").asString(), "the kill reached the job it launched");
    }

    @Test
    void aLaunchNamingACallerThatIsNoOpenRunOfTheUserIsRefusedAndStoresNothing() throws Exception {
        Api submitter = api(token(Role.SUBMIT));
        String data = submitter
                .post("/api/v1/nodes", "{\"type\": \"int\", \"value\": 1}")
                .json()
                .get("uuid")
                .asString();
        long bob = new UserStore(engine.database())
                .create("bob@example.org", "Bob", "", "")
                .id();
        String others = openWorkflow(
                api(tokens.create(bob, "bob", EnumSet.of(Role.SUBMIT), null).secret()));
        String ended = openWorkflow(submitter);
        assertEquals(
                200,
                submitter
                        .post("/api/v1/function-runs/workflows/" + ended + "/end", "{}")
                        .status());
        Rows before = Rows.count(engine); // the runs stay open: settled would wait for them
        String echo = "{\"command\": \"echo\", \"caller\": \"%s\"}";
        String missing = "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55";
        List<List<String>> cases = List.of(
                List.of(echo.formatted(data), "400", "caller: " + data + " is node "),
                List.of(echo.formatted(missing), "400", "caller: no node has uuid " + missing),
                List.of(echo.formatted(others), "400", "was opened by another user"),
                List.of(echo.formatted(ended), "409", "has ended already: it is finished"));
        for (List<String> c : cases) {
            Api.Response r = submitter.post("/api/v1/shell-jobs", c.get(0));
            assertEquals(Integer.parseInt(c.get(1)), r.status(), c.get(0) + " -> " + r);
            assertTrue(r.body().contains(c.get(2)), "expected '" + c.get(2) + "' in " + r.body());
        }
        Api.Response launch = submitter.post("/api/v1/processes", """
                {"entry_point": "arithmetic.add_multiply", "inputs": {"x": 1, "y": 2, "z": 3}, "caller": "%s"}""".formatted(data));
        assertEquals(400, launch.status(), launch.toString());
        assertTrue(launch.body().contains("a caller is an open run of a workflow function"), launch.body());
        Rows after = Rows.count(engine);
        // the outbox is left out: an earlier test's rows leave it for the broker meanwhile
        assertEquals(
                List.of(before.nodes(), before.links(), before.processes()),
                List.of(after.nodes(), after.links(), after.processes()),
                "nothing stored");
        // ended, so that the other tests' counts need not wait for it
        assertEquals(
                200, admin().post("/api/v1/processes/" + others + "/kill", "{}").status());
    }

    private static String openWorkflow(Api api) {
        Api.Response opened =
                api.post("/api/v1/function-runs/workflows", "{\"function\": {\"module\": \"flows\", \"name\": \"f\"}}");
        assertEquals(201, opened.status(), opened.toString());
        return opened.json().get("uuid").asString();
    }
}
