package dev.cairn.api.functions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.api.testing.Multipart;
import dev.cairn.api.testing.Rows;
import dev.cairn.storage.graph.NpyArray;

/**
 * POST /api/v1/function-runs and /reuse: a client's function recorded with its inputs (new and stored),
 * outputs and source; served from the cache only for the same inputs and the same source; a failure and an
 * exception recorded as such; bad requests refused naming every problem, with nothing stored.
 */
class FunctionRunsIT extends ApiTest {

    private static final String SOURCE = "def scale(x, factor):\\n    return {'y': x * factor}\\n";

    @Test
    void aRunIsRecordedWithItsInputsOutputsAndSource() {
        Api api = api(token(Role.SUBMIT));
        String x = api.post("/api/v1/nodes", "{\"type\": \"float\", \"value\": 2.5}")
                .json()
                .get("uuid")
                .asString();
        Api.Response r = api.post("/api/v1/function-runs", """
                {"call": {"function": {"module": "analysis", "name": "scale", "source": "%s"}, "label": "scaled",
                  "inputs": {"x": {"uuid": "%s"}, "factor": {"type": "int", "value": 3}}},
                 "outputs": {"y": {"type": "float", "value": 7.5}, "meta": {"type": "dict", "value": {"k": [1]}}}}""".formatted(SOURCE, x));
        assertEquals(201, r.status(), r.toString());
        JsonNode process = r.json().get("process");
        String uuid = process.get("uuid").asString();
        assertEquals("/api/v1/processes/" + uuid, r.header("Location"));
        assertEquals("python:analysis.scale", process.get("entry_point").asString(), process.toString());
        assertEquals("finished", process.get("state").asString());
        assertEquals(0, process.get("exit_status").asInt());
        assertEquals(
                7.5,
                r.json().get("outputs").get("y").get("attributes").get("value").asDouble());
        assertEquals(
                1,
                r.json()
                        .get("outputs")
                        .get("meta")
                        .get("attributes")
                        .get("k")
                        .get(0)
                        .asInt());
        assertTrue(r.json().get("cached_from").isNull());

        JsonNode node = api.get("/api/v1/nodes/" + uuid).json();
        assertEquals(
                "process.calculation.calcfunction.CalcFunctionNode.",
                node.get("node_type").asString());
        assertEquals("scaled", node.get("label").asString());
        JsonNode attributes = node.get("attributes");
        assertEquals("scale", attributes.get("function_name").asString());
        assertEquals("analysis", attributes.get("function_namespace").asString());
        assertEquals(64, attributes.get("source_sha256").asString().length());
        assertTrue(attributes.get("sealed").asBoolean(), attributes.toString());
        assertEquals(
                "def scale(x, factor):\n    return {'y': x * factor}\n",
                api.get("/api/v1/nodes/" + uuid + "/files/source_file").body());
        assertEquals(
                List.of("input_calc x " + x, "input_calc factor"),
                links(api, uuid, "incoming").stream()
                        .map(l -> l.startsWith("input_calc factor") ? "input_calc factor" : l)
                        .toList());
        assertEquals(
                List.of("create y", "create meta"),
                links(api, uuid, "outgoing").stream()
                        .map(l -> l.substring(0, l.lastIndexOf(' ')))
                        .toList());
    }

    @Test
    void aCallIsServedFromTheCacheOnlyForTheSameInputsAndSource() {
        Api api = api(token(Role.SUBMIT));
        String call = call("cached", SOURCE, 4, true);
        Rows before = Rows.settled(engine);
        Api.Response asked = api.post("/api/v1/function-runs/reuse", call);
        assertEquals(200, asked.status(), asked.toString());
        JsonNode miss = asked.json();
        assertFalse(miss.get("hit").asBoolean(), miss.toString());
        assertTrue(miss.get("run").isNull());
        assertTrue(miss.get("caching").asBoolean(), "use_cache true: the cache was looked in");
        assertEquals(before, Rows.settled(engine), "a miss stores nothing");

        Api.Response ran = api.post(
                "/api/v1/function-runs",
                "{\"call\": " + call + ", \"outputs\": {\"y\": {\"type\": \"int\", \"value\": 8}}}");
        assertEquals(201, ran.status(), ran.toString());
        String source = ran.json().get("process").get("uuid").asString();

        Api.Response hit = api.post("/api/v1/function-runs/reuse", call);
        assertEquals(200, hit.status(), hit.toString());
        assertTrue(hit.json().get("hit").asBoolean(), hit.toString());
        JsonNode copy = hit.json().get("run");
        assertEquals(source, copy.get("cached_from").asString());
        assertEquals("finished", copy.get("process").get("state").asString());
        assertNotEquals(source, copy.get("process").get("uuid").asString());
        JsonNode y = copy.get("outputs").get("y");
        assertEquals(8, y.get("attributes").get("value").asInt());
        assertNotEquals(
                ran.json().get("outputs").get("y").get("uuid").asString(),
                y.get("uuid").asString(),
                "the copy creates its own output");

        for (String other : List.of(
                call("cached", SOURCE, 5, true),
                call("cached", SOURCE.replace("x * factor", "factor * x"), 4, true),
                call("cached", SOURCE, 4, false),
                call("cached_twin", SOURCE, 4, true))) {
            JsonNode answer = api.post("/api/v1/function-runs/reuse", other).json();
            assertFalse(answer.get("hit").asBoolean(), other + " → " + answer);
        }
        assertFalse(
                api.post("/api/v1/function-runs/reuse", call("cached", SOURCE, 4, false))
                        .json()
                        .get("caching")
                        .asBoolean(),
                "use_cache false: the answer says no call of it is looked for");
        String byDefault = call("cached", SOURCE, 4, true).replace("\"use_cache\": true,", "");
        assertFalse(
                api.post("/api/v1/function-runs/reuse", byDefault)
                        .json()
                        .get("caching")
                        .asBoolean(),
                "without use_cache, as the server's setting (cairn.caching, off here) says");
    }

    @Test
    void aFailureAndAnExceptionAreRecordedWithoutOutputs() {
        Api api = api(token(Role.SUBMIT));
        Api.Response failed = api.post(
                "/api/v1/function-runs",
                "{\"call\": " + call("fails", SOURCE, 1, false)
                        + ", \"exit_status\": 3, \"exit_message\": \"no atoms\"}");
        assertEquals(201, failed.status(), failed.toString());
        assertEquals(3, failed.json().get("process").get("exit_status").asInt());
        assertEquals("finished", failed.json().get("process").get("state").asString());
        assertTrue(failed.json().get("outputs").isEmpty());

        Api.Response raised = api.post(
                "/api/v1/function-runs",
                "{\"call\": " + call("raises", SOURCE, 0, false)
                        + ", \"exception\": \"ZeroDivisionError: division by zero\"}");
        assertEquals(201, raised.status(), raised.toString());
        String uuid = raised.json().get("process").get("uuid").asString();
        assertEquals("excepted", raised.json().get("process").get("state").asString());
        assertEquals(
                "ZeroDivisionError: division by zero",
                api.get("/api/v1/nodes/" + uuid)
                        .json()
                        .get("attributes")
                        .get("exception")
                        .asString());
    }

    @Test
    void badRequestsAreRefusedNamingEveryProblemAndStoreNothing() {
        Api api = api(token(Role.SUBMIT));
        String process = api.post("/api/v1/function-runs", "{\"call\": " + call("made", SOURCE, 1, false) + "}")
                .json()
                .get("process")
                .get("uuid")
                .asString();
        String stored = api.post("/api/v1/nodes", "{\"type\": \"int\", \"value\": 1}")
                .json()
                .get("uuid")
                .asString();
        Rows before = Rows.settled(engine);
        List<String> problems = problems(api.post("/api/v1/function-runs", """
                {"call": {"function": {"module": "my-module", "name": "f"},
                  "inputs": {"a": {"uuid": "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55"}, "b": {"uuid": "%s"},
                             "c": {"type": "complex", "value": 1}, "d": 4}},
                 "outputs": {"e": {"uuid": "%s"}, "f": {"type": "int", "value": "four"}}}""".formatted(process, stored)));
        assertEquals(
                List.of(
                        "call.function.module 'my-module' is not a Python name (" + FunctionIdentity.MODULE
                                + ", at most 200 characters)",
                        "call.inputs.a: no node has uuid 0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55",
                        "call.inputs.b: " + process + " is a process (CalcFunctionNode); a function takes data",
                        "call.inputs.c: 'type': unknown data type 'complex'; types are [int, float, str, bool, dict,"
                                + " list, structure] (files go to POST /api/v1/nodes/files)",
                        "call.inputs.d: expected {\"type\": …, \"value\": …} with type one of [int, float, str, bool,"
                                + " dict, list, structure], or a stored node as {\"uuid\": \"…\"}",
                        "outputs.e: a stored node; a calculation creates its outputs, so give the value",
                        "outputs.f: takes an integer, {\"value\": integer} (IntData), got a string"),
                problems.stream()
                        .map(p -> p.replaceAll("CalcFunctionNode<[^>]*>", "CalcFunctionNode"))
                        .toList());

        List<String> more = problems(api.post(
                "/api/v1/function-runs",
                "{\"call\": {\"function\": {\"module\": \"m\", \"name\": \"f\"}, \"inputs\": {\"_x\": {\"type\":"
                        + " \"int\", \"value\": 1}}}, \"exit_status\": 2, \"outputs\": {\"y\": {\"type\": \"int\","
                        + " \"value\": 1}}}"));
        assertEquals(1, more.size(), more.toString());
        assertTrue(
                more.getFirst().contains("input '_x': a name is letters, digits and single underscores"),
                more.toString());
        assertTrue(
                more.getFirst().contains("a run that failed (exit status 2) links no outputs, got y"), more.toString());
        assertEquals(before, Rows.settled(engine), "nothing stored");
    }

    @Test
    void filesAndFoldersComeAsOutputsInAMultipartRun() {
        Api api = api(token(Role.SUBMIT));
        String call = """
                {"function": {"module": "plots", "name": "draw", "source": "def draw(x):  # µ, ∑\\n    ...\\n"},
                 "use_cache": true, "inputs": {"x": {"type": "int", "value": 7}}}""";
        String run = "{\"call\": " + call + ", \"outputs\": {\"plot\": {\"type\": \"file\"}, \"frames\":"
                + " {\"type\": \"folder\"}, \"empty\": {\"type\": \"folder\"}, \"n\": {\"type\": \"int\","
                + " \"value\": 2}, \"spectrum\": {\"type\": \"array\"}}}";
        Api.Response r = new Multipart()
                .field("run", "application/json", run)
                .file("files", "plot/fig.png", bytes("a figure"))
                .file("files", "frames/0.xyz", bytes("frame 0"))
                .file("files", "frames/sub/1.xyz", bytes("frame 1"))
                .file(
                        "files",
                        "spectrum/default.npy",
                        NpyArray.of(new double[] {0.5, 1.5}, 2).toBytes())
                .post(api, "/api/v1/function-runs");
        assertEquals(201, r.status(), r.toString());
        String uuid = r.json().get("process").get("uuid").asString();
        JsonNode outputs = r.json().get("outputs");
        assertEquals(List.of("plot", "frames", "empty", "n", "spectrum"), names(outputs), "every output, in order");
        assertEquals(
                "[2]",
                outputs.get("spectrum").get("attributes").get("array|default").toString());
        JsonNode plot = outputs.get("plot");
        assertEquals(
                "data.core.singlefile.SinglefileData.", plot.get("node_type").asString());
        assertEquals("fig.png", plot.get("attributes").get("filename").asString());
        assertEquals(
                "a figure",
                api.get("/api/v1/nodes/" + plot.get("uuid").asString() + "/files/fig.png")
                        .body());
        String frames = outputs.get("frames").get("uuid").asString();
        assertEquals(
                "data.core.folder.FolderData.",
                outputs.get("frames").get("node_type").asString());
        assertEquals(
                "frame 0", api.get("/api/v1/nodes/" + frames + "/files/0.xyz").body());
        assertEquals(
                "frame 1",
                api.get("/api/v1/nodes/" + frames + "/files/sub/1.xyz").body());
        assertEquals(
                0,
                api.get("/api/v1/nodes/" + outputs.get("empty").get("uuid").asString() + "/files")
                        .json()
                        .get("entries")
                        .size());
        assertEquals(
                "def draw(x):  # µ, ∑\n    ...\n",
                api.get("/api/v1/nodes/" + uuid + "/files/source_file").body(),
                "the run's JSON read as UTF-8");

        JsonNode hit = api.post("/api/v1/function-runs/reuse", call).json();
        assertTrue(hit.get("hit").asBoolean(), hit.toString());
        String copied = hit.get("run").get("outputs").get("plot").get("uuid").asString();
        assertNotEquals(plot.get("uuid").asString(), copied);
        assertEquals(
                "a figure",
                api.get("/api/v1/nodes/" + copied + "/files/fig.png").body());
    }

    @Test
    void filesNoOutputTakesOrThatDoNotFitAreRefusedAndStoreNothing() {
        Api api = api(token(Role.SUBMIT));
        String call = call("files", SOURCE, 1, false);
        Rows before = Rows.settled(engine);
        assertEquals(
                List.of("outputs.plot: a file comes in a multipart/form-data request: the run as JSON in the part"
                        + " 'run', each file in a part 'files' named plot/<file name>"),
                problems(api.post(
                        "/api/v1/function-runs",
                        "{\"call\": " + call + ", \"outputs\": {\"plot\": {\"type\": \"file\"}}}")));

        List<String> problems = problems(new Multipart()
                .field(
                        "run",
                        "application/json",
                        "{\"call\": " + call + ", \"outputs\": {\"two\": {\"type\": \"file\"}, \"none\":"
                                + " {\"type\": \"file\"}, \"odd\": {\"type\": \"file\", \"value\": 1},"
                                + " \"values\": {\"type\": \"array\"}}}")
                .file("files", "values/default.npy", bytes("not numbers"))
                .file("files", "two/a.txt", bytes("a"))
                .file("files", "two/b.txt", bytes("b"))
                .file("files", "stray/c.txt", bytes("c"))
                .file("files", "../d.txt", bytes("d"))
                .file("files", "e.txt", bytes("e"))
                .post(api, "/api/v1/function-runs"));
        assertEquals(
                List.of(
                        "outputs.two: a file is one part 'files' named two/<file name>, got a.txt, b.txt; a folder"
                                + " is of type folder",
                        "outputs.none: a file is one part 'files' named none/<file name>, got none; a folder is of"
                                + " type folder",
                        "outputs.odd: a file is {\"type\": \"file\"} alone; its content comes as parts 'files'",
                        "outputs.values: default.npy: not an .npy file of version 1.0 (numpy.save writes one)",
                        "files: file name '../d.txt' is refused: it has an empty, '.' or '..' name; a file name is a"
                                + " relative path of names separated by '/' (a.txt, out/a.txt)",
                        "files: file name 'e.txt' names no output; it is <output>/<file name>, as plot/fig.png",
                        "files: the files of 'stray' (c.txt) belong to nothing of type file, folder or array"),
                problems);

        List<String> failed = problems(new Multipart()
                .field("run", "application/json", "{\"call\": " + call + ", \"exit_status\": 1}")
                .file("files", "plot/fig.png", bytes("a figure"))
                .post(api, "/api/v1/function-runs"));
        assertEquals(
                List.of("files: the files of 'plot' (fig.png) belong to nothing of type file, folder or array"),
                failed,
                "a failed run sends no files");

        assertEquals(
                List.of("part 'run': malformed JSON at line 1, column 2: Unexpected character ('x' (code 120)):"
                        + " was expecting double-quote to start property name"),
                problems(new Multipart().field("run", "application/json", "{x").post(api, "/api/v1/function-runs")));
        assertEquals(
                List.of("part 'run': null; it is the run as a JSON object"),
                problems(
                        new Multipart().field("run", "application/json", "null").post(api, "/api/v1/function-runs")));
        assertEquals(before, Rows.settled(engine), "nothing stored");
    }

    @Test
    void aWorkflowFunctionCallsFunctionsAndReturnsWhatTheyMade() {
        Api api = api(token(Role.SUBMIT));
        Api.Response opened = api.post("/api/v1/function-runs/workflows", """
                {"function": {"module": "flows", "name": "relax_all", "source": "def relax_all(x): ..."},
                 "label": "all", "inputs": {"x": {"type": "int", "value": 3}}}""");
        assertEquals(201, opened.status(), opened.toString());
        String flow = opened.json().get("uuid").asString();
        assertEquals("/api/v1/processes/" + flow, opened.header("Location"));
        assertEquals("waiting", opened.json().get("state").asString());
        assertEquals("python:flows.relax_all", opened.json().get("entry_point").asString());

        String calc = api.post(
                        "/api/v1/function-runs",
                        "{\"call\": {\"function\": {\"module\": \"flows\", \"name\": \"double\"}, \"caller\": \""
                                + flow + "\", \"inputs\": {\"x\": {\"type\": \"int\", \"value\": 3}}},"
                                + " \"outputs\": {\"y\": {\"type\": \"int\", \"value\": 6}}}")
                .json()
                .get("outputs")
                .get("y")
                .get("uuid")
                .asString();
        String inner = api.post(
                        "/api/v1/function-runs/workflows",
                        "{\"function\": {\"module\": \"flows\", \"name\": \"inner\"}, \"caller\": \"" + flow + "\"}")
                .json()
                .get("uuid")
                .asString();
        Api.Response innerEnd = api.post(
                "/api/v1/function-runs/workflows/" + inner + "/end",
                "{\"outputs\": {\"same\": {\"uuid\": \"" + calc + "\"}}}");
        assertEquals(200, innerEnd.status(), innerEnd.toString());
        assertEquals(flow, innerEnd.json().get("process").get("caller").asString(), "the answer names the caller");

        Api.Response ended = api.post(
                "/api/v1/function-runs/workflows/" + flow + "/end",
                "{\"outputs\": {\"y\": {\"uuid\": \"" + calc + "\"}}}");
        assertEquals(200, ended.status(), ended.toString());
        assertEquals("finished", ended.json().get("process").get("state").asString());
        assertEquals(calc, ended.json().get("outputs").get("y").get("uuid").asString());
        JsonNode node = api.get("/api/v1/nodes/" + flow).json();
        assertEquals(
                "process.workflow.workfunction.WorkFunctionNode.",
                node.get("node_type").asString());
        assertTrue(node.get("attributes").get("sealed").asBoolean(), node.toString());
        List<String> outgoing = links(api, flow, "outgoing").stream()
                .map(l -> l.substring(0, l.lastIndexOf(' ')))
                .sorted()
                .toList();
        assertEquals(List.of("call_calc CALL", "call_work CALL", "return y"), outgoing);
        assertEquals(
                List.of("input_work x"),
                links(api, flow, "incoming").stream()
                        .map(l -> l.substring(0, l.lastIndexOf(' ')))
                        .toList());
    }

    @Test
    void aWorkflowFunctionEndsOnceReturnsStoredDataAndIsKilledAsAnyProcess() {
        Api api = api(token(Role.SUBMIT));
        String calc = api.post("/api/v1/function-runs", "{\"call\": " + call("plain", SOURCE, 1, false) + "}")
                .json()
                .get("process")
                .get("uuid")
                .asString();
        Rows.settled(engine);
        String flow = api.post(
                        "/api/v1/function-runs/workflows", "{\"function\": {\"module\": \"flows\", \"name\": \"f\"}}")
                .json()
                .get("uuid")
                .asString();
        Rows before = Rows.count(engine); // the run stays open: settled would wait for it
        assertEquals(
                List.of("outputs.v: a workflow returns stored data, {\"uuid\": \"…\"} (what its calls made, or an"
                        + " input); a new value is made by a calculation function it calls"),
                problems(api.post(
                        "/api/v1/function-runs/workflows/" + flow + "/end",
                        "{\"outputs\": {\"v\": {\"type\": \"int\", \"value\": 1}}}")));
        assertEquals(
                List.of("use_cache: a workflow function is not taken from the cache (the calculation functions it"
                        + " calls are); leave it out"),
                problems(api.post(
                        "/api/v1/function-runs/workflows",
                        "{\"function\": {\"module\": \"flows\", \"name\": \"f\"}, \"use_cache\": true}")));
        List<String> notACaller = problems(api.post(
                "/api/v1/function-runs",
                "{\"call\": {\"function\": {\"module\": \"m\", \"name\": \"f\"}, \"caller\": \"" + calc + "\"}}"));
        assertEquals(1, notACaller.size(), notACaller.toString());
        assertTrue(
                notACaller.getFirst().startsWith("call.caller: " + calc + " is node ")
                        && notACaller
                                .getFirst()
                                .contains("(process.calculation.calcfunction.CalcFunctionNode.); a caller"
                                        + " is an open run of a workflow function"),
                notACaller.toString());
        Api.Response notOpen = api.post("/api/v1/function-runs/workflows/" + calc + "/end", "{}");
        assertEquals(404, notOpen.status(), notOpen.toString());
        assertEquals(before, Rows.count(engine), "refusals store nothing");

        Api.Response killed = api.post("/api/v1/processes/" + flow + "/kill", "");
        assertEquals(200, killed.status(), killed.toString());
        assertEquals(
                "killed",
                api.get("/api/v1/processes/" + flow)
                        .json()
                        .get("process")
                        .get("state")
                        .asString());
        Api.Response late = api.post("/api/v1/function-runs/workflows/" + flow + "/end", "{}");
        assertEquals(409, late.status(), late.toString());
        assertTrue(late.json().get("detail").asString().contains("has ended already: it is killed"), late.toString());
        Api.Response orphan = api.post(
                "/api/v1/function-runs",
                "{\"call\": {\"function\": {\"module\": \"m\", \"name\": \"f\"}, \"caller\": \"" + flow + "\"}}");
        assertEquals(409, orphan.status(), orphan.toString());
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** A call of the function {@code name} with the input x (an int) and factor 2. */
    private static String call(String name, String source, int x, boolean useCache) {
        return """
                {"function": {"module": "analysis", "name": "%s", "source": "%s"}, "use_cache": %s,
                 "inputs": {"x": {"type": "int", "value": %d}, "factor": {"type": "int", "value": 2}}}""".formatted(name, source, useCache, x);
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.propertyNames().forEach(names::add);
        return names;
    }

    private static List<String> problems(Api.Response r) {
        assertEquals(400, r.status(), r.toString());
        List<String> problems = new ArrayList<>();
        JsonNode listed = r.json().get("problems");
        if (listed == null) {
            problems.add(r.json().get("detail").asString());
        } else {
            listed.forEach(p -> problems.add(p.asString()));
        }
        return problems;
    }

    /** The node's links one way, as "type label uuid". */
    private static List<String> links(Api api, String uuid, String direction) {
        List<String> links = new ArrayList<>();
        api.get("/api/v1/nodes/" + uuid + "/links/" + direction)
                .json()
                .get("items")
                .forEach(l -> links.add(
                        l.get("type").asString() + " " + l.get("label").asString() + " "
                                + l.get("node").get("uuid").asString()));
        return links;
    }
}
