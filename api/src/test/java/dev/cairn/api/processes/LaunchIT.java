package dev.cairn.api.processes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.api.testing.Rows;
import dev.cairn.storage.graph.IntData;

/** Launching from JSON: one process, a batch, a cache explanation; and every refusal leaving nothing behind. */
class LaunchIT extends ApiTest {

    private static final Duration END = Duration.ofSeconds(60);

    @Test
    void aLaunchRunsAndItsProcessShowsInputsOutputsAndWhatItCalled() throws Exception {
        Api.Response r = admin().post("/api/v1/processes", """
                {"entry_point": "arithmetic.add_multiply", "inputs": {"x": 2, "y": 3, "z": 4}}""");
        assertEquals(201, r.status(), r.toString());
        JsonNode summary = r.json();
        String uuid = summary.get("uuid").asString();
        assertEquals("/api/v1/processes/" + uuid, r.header("Location"));
        assertEquals("arithmetic.add_multiply", summary.get("entry_point").asString());
        assertEquals("workchain", summary.get("kind").asString());
        assertEquals("created", summary.get("state").asString());

        JsonNode detail = Processes.awaitEnd(admin(), uuid, END);
        assertEquals("finished", detail.get("process").get("state").asString(), detail.toString());
        assertEquals(0, detail.get("exit_code").get("status").asInt());
        assertEquals("OK", detail.get("exit_code").get("label").asString());
        assertEquals(2, detail.get("inputs").get("x").get("value").asInt());
        assertEquals(
                "data.core.int.Int.",
                detail.get("inputs").get("z").get("node_type").asString());
        assertEquals(20, detail.get("outputs").get("result").get("value").asInt());
        List<String> called = new ArrayList<>();
        detail.get("called").forEach(c -> called.add(c.get("entry_point").asString()));
        assertEquals(List.of("arithmetic.add_function", "arithmetic.multiply"), called);
        detail.get("called").forEach(c -> assertEquals(uuid, c.get("caller").asString()));
        assertTrue(detail.get("exception").isNull());
        assertTrue(detail.get("job").isNull());
    }

    @Test
    void storedNodesAreGivenByUuid() throws Exception {
        IntData five = engine.graph().store(new IntData(5));
        JsonNode summary = Processes.launch(
                admin(), "arithmetic.add_function", "{\"x\": {\"uuid\": \"" + five.uuid() + "\"}, \"y\": 1}");
        JsonNode detail = Processes.awaitEnd(admin(), summary.get("uuid").asString(), END);
        assertEquals(
                five.uuid().toString(),
                detail.get("inputs").get("x").get("uuid").asString());
        assertEquals(6, detail.get("outputs").get("result").get("value").asInt());
    }

    @Test
    void anUnknownEntryPointIsRefusedNamingWhereToListThem() {
        Rows before = Rows.settled(engine);
        Api.Response r = admin().post("/api/v1/processes", """
                {"entry_point": "arithmetic.nope", "inputs": {"x": 1}}""");
        assertEquals(400, r.status(), r.toString());
        String detail = r.json().get("detail").asString();
        assertTrue(detail.contains("unknown entry point 'arithmetic.nope'"), detail);
        assertTrue(detail.contains("GET /api/v1/process-types"), detail);
        assertTrue(detail.contains("arithmetic.add_multiply"), detail);
        assertEquals(before, Rows.settled(engine));
    }

    @Test
    void inputsThatBreakTheSpecAreRefusedPortByPortAndNothingIsStored() {
        Rows before = Rows.settled(engine);
        Api.Response r = admin().post("/api/v1/processes", """
                {"entry_point": "arithmetic.add_multiply", "inputs": {"x": "20", "y": 1, "z": 2, "w": 3}}""");
        assertEquals(400, r.status(), r.toString());
        JsonNode problem = r.json();
        assertEquals("urn:cairn:problem:invalid-input", problem.get("type").asString());
        List<String> problems = new ArrayList<>();
        problem.get("problems").forEach(p -> problems.add(p.asString()));
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("input 'x' takes an integer"), problems.toString());
        assertTrue(problems.get(1).startsWith("'w' is not an input; valid inputs are [x, y, z]"), problems.toString());

        Api.Response missing = admin().post("/api/v1/processes", """
                {"entry_point": "arithmetic.add_multiply", "inputs": {"x": 1, "z": 2}}""");
        assertEquals(400, missing.status(), missing.toString());
        assertEquals(
                "required input 'y' (IntData) is missing",
                missing.json().get("problems").get(0).asString());
        assertEquals(before, Rows.settled(engine));
    }

    @Test
    void unknownFieldsOfALaunchAreRefused() {
        Rows before = Rows.settled(engine);
        Api.Response r = admin().post("/api/v1/processes", """
                {"entry_point": "arithmetic.add_function", "inputz": {"x": 1, "y": 2}}""");
        assertEquals(400, r.status(), r.toString());
        String detail = r.json().get("detail").asString();
        assertTrue(detail.startsWith("unknown field 'inputz'"), detail);
        assertTrue(detail.contains("entry_point"), detail);
        assertEquals(before, Rows.settled(engine));
    }

    @Test
    void aBatchLaunchesEveryProcessInItsOrder() throws Exception {
        String launches = IntStream.range(0, 5)
                .mapToObj(i -> "{\"entry_point\": \"arithmetic.add_multiply\", \"inputs\": {\"x\": " + i
                        + ", \"y\": 1, \"z\": 2}}")
                .collect(Collectors.joining(", ", "{\"launches\": [", "]}"));
        Api.Response r = admin().post("/api/v1/processes/batch", launches);
        assertEquals(201, r.status(), r.toString());
        assertEquals(5, r.json().get("count").asInt());
        int i = 0;
        for (JsonNode p : r.json().get("processes")) {
            JsonNode detail = Processes.awaitEnd(admin(), p.get("uuid").asString(), END);
            assertEquals(i, detail.get("inputs").get("x").get("value").asInt());
            assertEquals(
                    (i + 1) * 2,
                    detail.get("outputs").get("result").get("value").asInt());
            i++;
        }
    }

    @Test
    void aBatchWithInvalidLaunchesLaunchesNothingAndNamesEachByIndex() {
        Rows before = Rows.settled(engine);
        Api.Response r = admin().post("/api/v1/processes/batch", """
                {"launches": [
                  {"entry_point": "arithmetic.add_multiply", "inputs": {"x": 1, "y": 2, "z": 3}},
                  {"entry_point": "arithmetic.add_multiply", "inputs": {"x": 1, "z": 3}},
                  {"entry_point": "arithmetic.nope"},
                  {"entry_point": "examples.sum_series", "inputs": {"n": -1}}]}""");
        assertEquals(400, r.status(), r.toString());
        List<String> problems = new ArrayList<>();
        r.json().get("problems").forEach(p -> problems.add(p.asString()));
        assertEquals(3, problems.size(), problems.toString());
        assertEquals("launches[1]: required input 'y' (IntData) is missing", problems.get(0));
        assertTrue(problems.get(1).startsWith("launches[2]: unknown entry point 'arithmetic.nope'"), problems.get(1));
        assertTrue(problems.get(2).startsWith("launches[3]: input 'n': must not be negative"), problems.get(2));
        assertTrue(r.json().get("detail").asString().contains("3 invalid; none was launched"), r.toString());
        assertEquals(before, Rows.settled(engine));
    }

    @Test
    void aBatchOverTheLimitIsRefused() {
        Rows before = Rows.settled(engine);
        String launches = IntStream.range(0, 1001)
                .mapToObj(i -> "{\"entry_point\": \"arithmetic.add_function\", \"inputs\": {\"x\": 1, \"y\": 2}}")
                .collect(Collectors.joining(", ", "{\"launches\": [", "]}"));
        Api.Response r = admin().post("/api/v1/processes/batch", launches);
        assertEquals(400, r.status(), r.toString());
        assertEquals(
                "a batch takes at most 1000 launches (cairn.limits.batch-max), not 1001: send it in several batches",
                r.json().get("detail").asString());
        Api.Response empty = admin().post("/api/v1/processes/batch", "{\"launches\": []}");
        assertEquals(400, empty.status(), empty.toString());
        assertEquals(before, Rows.settled(engine));
    }

    @Test
    void aReadTokenMayExplainTheCacheButNotLaunch() {
        Api reader = api(token(Role.READ));
        Rows before = Rows.settled(engine);
        Api.Response launch = reader.post("/api/v1/processes", """
                {"entry_point": "arithmetic.add_function", "inputs": {"x": 1, "y": 2}}""");
        assertEquals(403, launch.status(), launch.toString());
        Api.Response explain = reader.post("/api/v1/processes/explain-cache", """
                {"entry_point": "arithmetic.add_function", "inputs": {"x": 1, "y": 2}}""");
        assertEquals(200, explain.status(), explain.toString());
        assertEquals(before, Rows.settled(engine));
    }

    @Test
    void explainingTheCacheStoresNothingAndAnInvalidatedSourceIsNoHit() throws Exception {
        String launch = """
                {"entry_point": "arithmetic.add_function", "inputs": {"x": 40, "y": 2}}""";
        Api.Response first = admin().post("/api/v1/processes/explain-cache", launch);
        assertEquals(200, first.status(), first.toString());
        assertFalse(first.json().get("hit").asBoolean(), first.toString());

        String source = Processes.launch(admin(), "arithmetic.add_function", "{\"x\": 40, \"y\": 2}")
                .get("uuid")
                .asString();
        Processes.awaitEnd(admin(), source, END);
        Rows before = Rows.settled(engine);
        Api.Response hit = admin().post("/api/v1/processes/explain-cache", launch);
        assertTrue(hit.json().get("hit").asBoolean(), hit.toString());
        assertTrue(hit.json().get("explanation").asString().startsWith("hit: node "), hit.toString());
        assertEquals(before, Rows.settled(engine));

        Api.Response invalidated = admin().post("/api/v1/processes/" + source + "/invalidate-cache", "");
        assertEquals(200, invalidated.status(), invalidated.toString());
        assertFalse(invalidated.json().get("valid_cache_source").asBoolean());
        Api.Response miss = admin().post("/api/v1/processes/explain-cache", launch);
        assertFalse(miss.json().get("hit").asBoolean(), miss.toString());
        assertTrue(miss.json().get("explanation").asString().startsWith("miss: "), miss.toString());
    }

    @Test
    void aWorkflowIsNeverACacheSource() throws Exception {
        String chain = Processes.launch(admin(), "arithmetic.add_multiply", "{\"x\": 1, \"y\": 1, \"z\": 1}")
                .get("uuid")
                .asString();
        Api.Response r = admin().post("/api/v1/processes/" + chain + "/invalidate-cache", "");
        assertEquals(400, r.status(), r.toString());
        assertTrue(r.json().get("detail").asString().contains("workflows are never cache sources"), r.toString());
        Api.Response explain = admin().post("/api/v1/processes/explain-cache", """
                {"entry_point": "arithmetic.add_multiply", "inputs": {"x": 1, "y": 1, "z": 1}}""");
        assertFalse(explain.json().get("hit").asBoolean(), explain.toString());
        assertTrue(explain.json().get("explanation").asString().startsWith("never: workflows"), explain.toString());
    }
}
