package dev.cairn.api.processes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.IntData;

/** Process types, the list of processes, one process, its call tree and report. */
class ProcessReadIT extends ApiTest {

    /** The class's only launch; every test reads it (the application and its database are the class's). */
    private static String series;

    /** One examples.sum_series of 3 terms in rounds of 2: 3 add_multiply children (2 calcfunctions each) and a sum. */
    @BeforeEach
    void runASeriesOnce() throws Exception {
        if (series != null) {
            return;
        }
        series = Processes.launch(admin(), "examples.sum_series", "{\"n\": 3, \"batch\": 2}")
                .get("uuid")
                .asString();
        JsonNode detail = Processes.awaitEnd(admin(), series, Duration.ofSeconds(60));
        assertEquals(12, detail.get("outputs").get("total").get("value").asInt(), detail.toString());
    }

    @Test
    void processTypesCarryTheirSchemasAndExitCodes() {
        Api.Response all = admin().get("/api/v1/process-types");
        assertEquals(200, all.status(), all.toString());
        JsonNode seriesType = null;
        for (JsonNode t : all.json()) {
            if (t.get("entry_point").asString().equals("examples.sum_series")) {
                seriesType = t;
            }
        }
        assertNotNull(seriesType, all.toString());
        assertEquals("workchain", seriesType.get("kind").asString());
        assertEquals(
                "how many terms",
                seriesType
                        .get("inputs_schema")
                        .get("properties")
                        .get("n")
                        .get("description")
                        .asString());
        List<String> labels = new ArrayList<>();
        seriesType
                .get("exit_codes")
                .forEach(c -> labels.add(
                        c.get("status").asInt() + " " + c.get("label").asString()));
        assertEquals(
                List.of(
                        "1 ERROR_UNSPECIFIED",
                        "10 ERROR_INVALID_OUTPUT",
                        "11 ERROR_MISSING_OUTPUT",
                        "400 ERROR_TOO_MANY_TERMS"),
                labels);

        JsonNode job = admin().get("/api/v1/process-types/arithmetic.add").json();
        assertEquals("calcjob", job.get("kind").asString());
        assertTrue(job.get("metadata_schema").get("properties").has("options"), job.toString());

        Api.Response unknown = admin().get("/api/v1/process-types/arithmetic.nope");
        assertEquals(404, unknown.status(), unknown.toString());
        assertTrue(unknown.json().get("detail").asString().contains("examples.sum_series"), unknown.toString());
    }

    @Test
    void theOpenApiDocumentCarriesEveryProcessTypesSchemas() {
        JsonNode doc = api(null).get("/v3/api-docs").json();
        JsonNode schemas = doc.get("components").get("schemas");
        JsonNode inputs = schemas.get("examples.sum_series.inputs");
        assertNotNull(inputs, schemas.propertyNames().toString());
        assertTrue(inputs.get("properties").has("n"), inputs.toString());
        assertNotNull(schemas.get("arithmetic.add.metadata"));
        // a launch's inputs and metadata are JSON objects (Jackson 3 nodes, which springdoc does not know)
        JsonNode launch = schemas.get("LaunchRequest").get("properties");
        assertEquals("object", launch.get("inputs").get("type").asString(), launch.toString());
        assertEquals("object", launch.get("metadata").get("type").asString(), launch.toString());
        assertNotNull(schemas.get("arithmetic.add_multiply.outputs"));
        // every reference of a type's schema is to a component of the document (its $defs became components)
        List<String> refs = new ArrayList<>();
        collectRefs(schemas.get("arithmetic.add.inputs"), refs);
        assertFalse(refs.isEmpty());
        for (String ref : refs) {
            assertTrue(ref.matches("#/components/schemas/[A-Za-z.]+"), ref);
            assertFalse(doc.at(ref.substring(1)).isMissingNode(), ref);
        }
    }

    private static void collectRefs(JsonNode node, List<String> into) {
        if (node.isObject()) {
            node.properties().forEach(e -> {
                if (e.getKey().equals("$ref")) {
                    into.add(e.getValue().asString());
                } else {
                    collectRefs(e.getValue(), into);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> collectRefs(n, into));
        }
    }

    @Test
    void theCallTreeHoldsEveryProcessWithItsState() {
        JsonNode tree = admin().get("/api/v1/processes/" + series + "/tree").json();
        assertEquals(series, tree.get("process").get("uuid").asString());
        assertEquals("finished", tree.get("process").get("state").asString());
        List<String> called = new ArrayList<>();
        int grandchildren = 0;
        for (JsonNode child : tree.get("called")) {
            called.add(child.get("process").get("entry_point").asString());
            assertEquals(series, child.get("process").get("caller").asString());
            grandchildren += child.get("called").size();
        }
        assertEquals(
                List.of(
                        "arithmetic.add_multiply",
                        "arithmetic.add_multiply",
                        "arithmetic.add_multiply",
                        "arithmetic.sum"),
                called);
        assertEquals(6, grandchildren);
    }

    @Test
    void theReportHoldsTheLogOfTheWholeTreeByLevel() {
        Api.Response report = admin().get("/api/v1/processes/" + series + "/report");
        assertEquals(200, report.status(), report.toString());
        List<String> messages = new ArrayList<>();
        report.json().get("items").forEach(e -> messages.add(e.get("message").asString()));
        assertEquals(List.of("submitted terms 0 to 1", "submitted terms 2 to 2"), messages);
        assertEquals("REPORT", report.json().get("items").get(0).get("level").asString());

        JsonNode page =
                admin().get("/api/v1/processes/" + series + "/report?limit=1").json();
        assertEquals(1, page.get("items").size());
        JsonNode rest = admin().get("/api/v1/processes/" + series + "/report?limit=1&cursor="
                        + page.get("next").asString())
                .json();
        assertEquals(
                "submitted terms 2 to 2",
                rest.get("items").get(0).get("message").asString());
        assertEquals(pkOf(series), rest.get("items").get(0).get("process_pk").asLong(), "the writer's PK");
        assertNull(rest.get("next"));

        assertEquals(
                0,
                admin().get("/api/v1/processes/" + series + "/report?level=error")
                        .json()
                        .get("items")
                        .size());
        Api.Response bad = admin().get("/api/v1/processes/" + series + "/report?level=loud");
        assertEquals(400, bad.status(), bad.toString());
        assertTrue(bad.json().get("detail").asString().contains("REPORT"), bad.toString());
    }

    @Test
    void listsFilterByTypeCallerStateAndLevel() {
        JsonNode children = admin().get(
                        "/api/v1/processes?type=arithmetic.add_multiply&caller=" + series + "&count=true")
                .json();
        assertEquals(3, children.get("items").size(), children.toString());
        assertEquals(3, children.get("total").asLong());
        JsonNode top =
                admin().get("/api/v1/processes?top_level=true&type=examples.*").json();
        assertEquals(List.of(series), uuids(top));
        JsonNode calcfunctions = admin().get(
                        "/api/v1/processes?type=arithmetic.*&state=finished&exit_status=0&count=true")
                .json();
        assertEquals(3 + 7, calcfunctions.get("total").asLong(), calcfunctions.toString());
        assertEquals(
                0,
                admin().get("/api/v1/processes?failed=true").json().get("items").size());
        assertEquals(
                0,
                admin().get("/api/v1/processes?state=waiting,created")
                        .json()
                        .get("items")
                        .size());
        assertEquals(
                0,
                admin().get("/api/v1/processes?paused=true").json().get("items").size());
        assertEquals(
                0,
                admin().get("/api/v1/processes?since=2999-01-01T00:00:00Z")
                        .json()
                        .get("items")
                        .size());
    }

    @Test
    void listsFilterByKind() {
        long all =
                admin().get("/api/v1/processes?count=true").json().get("total").asLong();
        Map<String, Long> totals = new HashMap<>();
        for (String kind : List.of("calcfunction", "calcjob", "workchain", "workfunction")) {
            JsonNode page = admin().get("/api/v1/processes?count=true&limit=1000&kind=" + kind)
                    .json();
            for (JsonNode p : page.get("items")) {
                assertEquals(kind, p.get("kind").asString(), page.toString());
            }
            totals.put(kind, page.get("total").asLong());
        }
        assertEquals(all, totals.values().stream().mapToLong(Long::longValue).sum(), "each process is of one kind");
        assertTrue(
                uuids(admin().get("/api/v1/processes?kind=workchain&limit=1000").json())
                        .contains(series));
        // repeated or comma-separated, in any case
        for (String kinds : List.of("kind=calcfunction&kind=workfunction", "kind=CalcFunction,workfunction")) {
            JsonNode two = admin().get("/api/v1/processes?count=true&" + kinds).json();
            assertEquals(
                    totals.get("calcfunction") + totals.get("workfunction"),
                    two.get("total").asLong(),
                    two.toString());
        }
    }

    @Test
    void listsArePagedByKeysetNewestFirst() {
        Set<String> seen = new HashSet<>();
        String cursor = null;
        int pages = 0;
        String previousCtime = null;
        do {
            Api.Response page = admin().get("/api/v1/processes?limit=4" + (cursor == null ? "" : "&cursor=" + cursor));
            assertEquals(200, page.status(), page.toString());
            JsonNode body = page.json();
            for (JsonNode p : body.get("items")) {
                assertTrue(seen.add(p.get("uuid").asString()), "seen twice: " + p);
                String ctime = p.get("ctime").asString();
                if (previousCtime != null) {
                    assertTrue(
                            OffsetDateTime.parse(ctime).compareTo(OffsetDateTime.parse(previousCtime)) <= 0,
                            ctime + " after " + previousCtime);
                }
                previousCtime = ctime;
            }
            cursor = body.has("next") ? body.get("next").asString() : null;
            if (cursor != null) {
                assertTrue(page.header("Link").contains("rel=\"next\""), page.header("Link"));
            }
            pages++;
        } while (cursor != null);
        // the series, 3 add_multiply, 7 calcfunctions
        assertEquals(11, seen.size());
        assertEquals(3, pages);
    }

    @Test
    void listsFilterByGroupAndOrderByTheLastChange() {
        assertEquals(
                201, admin().post("/api/v1/groups", "{\"label\": \"series\"}").status());
        Api.Response added = admin().post("/api/v1/groups/series/nodes", "{\"add\": [\"" + series + "\"]}");
        assertTrue(added.status() < 300, added.toString());
        assertEquals(
                List.of(series),
                uuids(admin().get("/api/v1/processes?group=series").json()));
        assertEquals(
                0,
                admin().get("/api/v1/processes?group=no-such-group")
                        .json()
                        .get("items")
                        .size());

        Set<String> seen = new HashSet<>();
        String cursor = null;
        String previousMtime = null;
        do {
            Api.Response page =
                    admin().get("/api/v1/processes?order=-mtime&limit=4" + (cursor == null ? "" : "&cursor=" + cursor));
            assertEquals(200, page.status(), page.toString());
            for (JsonNode p : page.json().get("items")) {
                assertTrue(seen.add(p.get("uuid").asString()), "seen twice: " + p);
                String mtime = p.get("mtime").asString();
                if (previousMtime != null) {
                    assertTrue(
                            OffsetDateTime.parse(mtime).compareTo(OffsetDateTime.parse(previousMtime)) <= 0,
                            mtime + " after " + previousMtime);
                }
                previousMtime = mtime;
            }
            cursor = page.json().has("next") ? page.json().get("next").asString() : null;
        } while (cursor != null);
        assertEquals(11, seen.size());
    }

    @Test
    void badListParametersAreRefusedNamingWhatIsValid() {
        Api.Response state = admin().get("/api/v1/processes?state=running");
        assertEquals(400, state.status(), state.toString());
        assertTrue(state.json().get("detail").asString().contains("[created, waiting, finished, excepted, killed]"));
        Api.Response order = admin().get("/api/v1/processes?order=uuid");
        assertEquals(400, order.status(), order.toString());
        assertEquals(
                "order 'uuid' is not one of [-ctime, ctime, -mtime, mtime]",
                order.json().get("detail").asString());
        Api.Response cursor = admin().get("/api/v1/processes?cursor=nonsense");
        assertEquals(400, cursor.status(), cursor.toString());
        Api.Response limit = admin().get("/api/v1/processes?limit=0");
        assertEquals(400, limit.status(), limit.toString());
        Api.Response since = admin().get("/api/v1/processes?since=yesterday");
        assertEquals(400, since.status(), since.toString());
        Api.Response type = admin().get("/api/v1/processes?type=a*b*");
        assertEquals(400, type.status(), type.toString());
        Api.Response kind = admin().get("/api/v1/processes?kind=workchain,calcjobs");
        assertEquals(400, kind.status(), kind.toString());
        assertEquals(
                "kind 'calcjobs' is not a kind of process; the kinds are [calcfunction, calcjob, workchain, workfunction]",
                kind.json().get("detail").asString());
        for (String none : List.of("kind=", "kind=%20,%20", "kind=calcjob&kind=")) {
            Api.Response empty = admin().get("/api/v1/processes?" + none);
            assertEquals(400, empty.status(), none + ": " + empty);
            assertEquals(
                    "kind is given but names no kind; the kinds are [calcfunction, calcjob, workchain, workfunction]",
                    empty.json().get("detail").asString());
        }
    }

    @Test
    void aDataNodeOrAnUnknownUuidIsNoProcess() {
        IntData data = engine.graph().store(new IntData(1));
        Api.Response notProcess = admin().get("/api/v1/processes/" + data.uuid());
        assertEquals(404, notProcess.status(), notProcess.toString());
        assertTrue(notProcess.json().get("detail").asString().contains("is not a process"), notProcess.toString());
        Api.Response unknown = admin().get("/api/v1/processes/" + UUID.randomUUID() + "/tree");
        assertEquals(404, unknown.status(), unknown.toString());
        Api.Response malformed = admin().get("/api/v1/processes/zz/report");
        assertEquals(400, malformed.status(), malformed.toString());
    }

    @Test
    void aProcessIsFoundByAPrefixOfItsUuid() {
        // a version-7 uuid begins with its millisecond: nodes stored together share more than that
        JsonNode detail =
                admin().get("/api/v1/processes/" + series.substring(0, 28)).json();
        assertEquals(series, detail.get("process").get("uuid").asString(), detail.toString());
        assertEquals(4, detail.get("called").size());
    }

    @Test
    void aProcessAndTheNodesAroundItCarryTheirPks() {
        JsonNode detail = admin().get("/api/v1/processes/" + series).json();
        assertEquals(pkOf(series), detail.get("process").get("pk").asLong(), detail.toString());
        JsonNode total = detail.get("outputs").get("total");
        assertEquals(pkOf(total.get("uuid").asString()), total.get("pk").asLong(), total.toString());
        JsonNode child = detail.get("called").get(0);
        assertEquals(pkOf(child.get("uuid").asString()), child.get("pk").asLong(), child.toString());

        JsonNode byPk = admin().get("/api/v1/processes/pk:" + pkOf(series)).json();
        assertEquals(series, byPk.get("process").get("uuid").asString(), "a process named by its PK");
    }

    private long pkOf(String uuid) {
        return engine.graph().load(UUID.fromString(uuid)).id();
    }

    private static List<String> uuids(JsonNode page) {
        List<String> all = new ArrayList<>();
        page.get("items").forEach(p -> all.add(p.get("uuid").asString()));
        return all;
    }
}
