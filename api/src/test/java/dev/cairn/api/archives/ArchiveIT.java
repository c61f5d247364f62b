package dev.cairn.api.archives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.archive.ArchiveExport;
import dev.cairn.storage.archive.ArchiveFormat;
import dev.cairn.storage.archive.ArchiveProgress;
import dev.cairn.storage.archive.ArchiveWriter;
import dev.cairn.storage.archive.ExportRequest;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.GraphFixtures;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.SinglefileData;
import dev.cairn.storage.graph.groups.GroupStore;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.testing.TestDatabase;

/**
 * {@code /api/v1/archive}: a group's closure exported as a streamed attachment and counted by a dry run,
 * verified by an inspection, imported back into the same server (nothing added) and, from another
 * installation, imported whole; roles; bad archives refused with the part named and nothing imported;
 * and an export that would hold a process that has not ended refused before a byte is sent.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ArchiveIT extends ApiTest {

    /** Another installation, whose archive this server has never seen. */
    @RegisterExtension
    static final TestDatabase elsewhere = new TestDatabase();

    @TempDir
    static Path elsewhereObjects;

    static Database elsewhereDb;

    static final byte[] CONTENT = "forty-two\n".getBytes(StandardCharsets.UTF_8);
    /** Another installation's file: an object this server does not have. */
    static final byte[] THEIR_CONTENT = "forty-two, said bob\n".getBytes(StandardCharsets.UTF_8);

    /** x -> calc -> (result, file), in a group of {@code label}, made by {@code graph}. */
    private static final JsonMapper JSON = JsonMapper.builder().build();

    record Chain(IntData x, CalcFunctionNode calc, IntData result, SinglefileData file) {}

    static Chain chain(GraphStore graph, Database database, String label, boolean ended) throws Exception {
        return chain(graph, database, label, ended, CONTENT);
    }

    static Chain chain(GraphStore graph, Database database, String label, boolean ended, byte[] content)
            throws Exception {
        IntData x = graph.store(new IntData(40));
        CalcFunctionNode calc = new CalcFunctionNode("arithmetic.add_function");
        calc.addIncoming(x, LinkType.INPUT_CALC, "x");
        IntData result = new IntData(42);
        SinglefileData file = new SinglefileData("answer.txt", content);
        if (ended) {
            calc.setProcessState("finished");
            calc.setExitStatus(0);
            calc.sealBeforeStore();
            result.addIncoming(calc, LinkType.CREATE, "result");
            file.addIncoming(calc, LinkType.CREATE, "file");
            graph.storeAll(List.of(calc, result, file));
        } else {
            graph.store(calc);
        }
        GroupStore groups = new GroupStore(database);
        long group = groups.create(label, GroupStore.CORE, "", graph.userId()).id();
        groups.addNodes(group, NodeIds.of(calc.id()));
        return new Chain(x, calc, result, file);
    }

    Chain chain(String label, boolean ended) throws Exception {
        return chain(engine.graph(), engine.database(), label, ended);
    }

    @AfterAll
    static void closeElsewhere() {
        if (elsewhereDb != null) {
            elsewhereDb.close();
        }
    }

    /** An archive of everything of another installation, and the chain it holds (in a group {@code theirs}). */
    record Elsewhere(byte[] archive, Chain chain) {}

    static Elsewhere archiveOfElsewhere() throws Exception {
        elsewhereDb = Database.open(DatabaseConfig.of(elsewhere.jdbcUrl()));
        try (Container objects = Container.init(elsewhereObjects, ContainerConfig.defaults())) {
            GraphStore graph = new GraphStore(elsewhereDb, objects, GraphFixtures.user(elsewhereDb, "bob@elsewhere"));
            Chain chain = chain(graph, elsewhereDb, "theirs", true, THEIR_CONTENT);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ArchiveWriter writer = ArchiveFormat.CAIRN.writer(bytes)) {
                new ArchiveExport(elsewhereDb, objects, "cairn test")
                        .export(ExportRequest.ofEverything(), writer, ArchiveProgress.NONE);
            }
            return new Elsewhere(bytes.toByteArray(), chain);
        }
    }

    static byte[] download(Api api, String query) throws IOException {
        HttpResponse<InputStream> r = api.stream(api.request("/api/v1/archive?" + query));
        try (InputStream in = r.body()) {
            byte[] body = in.readAllBytes();
            assertEquals(200, r.statusCode(), new String(body, StandardCharsets.UTF_8));
            assertEquals(
                    "application/octet-stream",
                    r.headers().firstValue("Content-Type").orElseThrow());
            String disposition = r.headers().firstValue("Content-Disposition").orElseThrow();
            assertTrue(disposition.startsWith("attachment; filename=\"cairn-"), disposition);
            assertTrue(disposition.endsWith(".cairn\""), disposition);
            return body;
        }
    }

    static Api.Response upload(Api api, String path, byte[] archive) {
        return api.send(api.request(path)
                .header("Content-Type", "application/octet-stream")
                .POST(HttpRequest.BodyPublishers.ofByteArray(archive)));
    }

    long nodes() {
        return admin().get("/api/v1/storage").json().get("nodes").asLong();
    }

    static Map<String, Long> counts(JsonNode counts) {
        return counts.propertyStream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().asLong()));
    }

    @Test
    @Order(1)
    void aGroupsClosureIsCountedByADryRunStreamedAsAnAttachmentAndVerifiedByAnInspection() throws Exception {
        Chain c = chain("mine", true);
        Api reader = api(token(Role.READ));
        Api.Response dry = reader.get("/api/v1/archive?group=mine&dry_run=true");
        assertEquals(200, dry.status(), dry.toString());
        JsonNode counts = dry.json().get("counts");
        assertEquals(4, counts.get("nodes").asLong(), dry.toString());
        assertEquals(3, counts.get("links").asLong(), dry.toString());
        assertEquals(1, counts.get("groups").asLong(), dry.toString());
        assertEquals(1, counts.get("group_members").asLong(), dry.toString());
        assertEquals(1, counts.get("objects").asLong(), dry.toString());
        assertEquals("cairn", dry.json().get("format").asString());
        JsonNode entities = dry.json().get("parameters").get("entities");
        assertEquals(1, entities.get("groups").size(), dry.toString());
        assertTrue(entities.get("nodes").isEmpty(), dry.toString());

        byte[] archive = download(reader, "group=mine");
        assertEquals(ArchiveFormat.CAIRN, ArchiveFormat.detect(archive).orElseThrow());
        Api.Response inspected = upload(reader, "/api/v1/archive/inspection", archive);
        assertEquals(200, inspected.status(), inspected.toString());
        assertEquals(counts(counts), counts(inspected.json().get("header").get("counts")));
        JsonNode parts = inspected.json().get("parts");
        assertEquals(4, parts.get("nodes").get("count").asLong(), inspected.toString());
        assertTrue(parts.get("nodes").get("bytes").asLong() > 0, inspected.toString());
        assertEquals(CONTENT.length, parts.get("objects").get("bytes").asLong(), inspected.toString());

        // the same by a node's PK, a node's uuid and the code-less calculation's closure
        Api.Response byNode = reader.get("/api/v1/archive?node=" + c.calc().id() + "&node=" + c.x().uuid()
                + "&dry_run=true&comments=false&logs=false");
        assertEquals(200, byNode.status(), byNode.toString());
        assertEquals(4, byNode.json().get("counts").get("nodes").asLong(), byNode.toString());
        assertEquals(0, byNode.json().get("counts").get("groups").asLong(), byNode.toString());
        assertFalse(byNode.json().get("parameters").get("include_comments").asBoolean(), byNode.toString());
    }

    @Test
    @Order(2)
    void anArchiveImportedIntoTheInstallationItCameFromAddsNothing() throws Exception {
        chain("again", true);
        byte[] archive = download(admin(), "all=true");
        long before = nodes();
        Api.Response imported = upload(admin(), "/api/v1/archive", archive);
        assertEquals(200, imported.status(), imported.toString());
        counts(imported.json().get("added")).forEach((part, added) -> assertEquals(0, added, part + ": " + imported));
        assertEquals(before, imported.json().get("existing").asLong(), imported.toString());
        assertFalse(imported.json().has("group"), "no new node, no import group: " + imported);
        assertEquals(before, nodes());
    }

    @Test
    @Order(2)
    void anAiidaArchiveIsSpooledDownInspectedAndImportedBackAsTheSameGraph() throws Exception {
        Api reader = api(token(Role.READ));
        HttpResponse<InputStream> r = reader.stream(reader.request("/api/v1/archive?group=mine&format=aiida"));
        byte[] zip;
        try (InputStream in = r.body()) {
            zip = in.readAllBytes();
        }
        assertEquals(200, r.statusCode(), new String(zip, StandardCharsets.UTF_8));
        String disposition = r.headers().firstValue("Content-Disposition").orElseThrow();
        assertTrue(disposition.endsWith(".aiida\""), disposition);
        assertEquals(ArchiveFormat.AIIDA, ArchiveFormat.detect(zip).orElseThrow());

        Api.Response inspected = upload(reader, "/api/v1/archive/inspection", zip);
        assertEquals(200, inspected.status(), inspected.toString());
        assertEquals("aiida", inspected.json().get("header").get("format").asString(), inspected.toString());
        assertEquals(
                4, inspected.json().get("header").get("counts").get("nodes").asLong(), inspected.toString());

        long before = nodes();
        Api.Response imported = upload(admin(), "/api/v1/archive", zip);
        assertEquals(200, imported.status(), imported.toString());
        assertEquals(0, imported.json().get("added").get("nodes").asLong(), imported.toString());
        assertEquals(4, imported.json().get("existing").asLong(), imported.toString());
        assertEquals(before, nodes());
    }

    @Test
    @Order(3)
    void anArchiveOfAnotherInstallationIsImportedWholeIntoTheNamedGroup() throws Exception {
        Elsewhere theirs = archiveOfElsewhere();
        long before = nodes();
        Api.Response imported =
                upload(admin(), "/api/v1/archive?group_label=from-bob&merge_comments=newest", theirs.archive());
        assertEquals(200, imported.status(), imported.toString());
        JsonNode added = imported.json().get("added");
        assertEquals(4, added.get("nodes").asLong(), imported.toString());
        assertEquals(3, added.get("links").asLong(), imported.toString());
        assertEquals(1, added.get("groups").asLong(), imported.toString());
        assertEquals(1, added.get("users").asLong(), imported.toString());
        assertEquals(1, added.get("objects").asLong(), imported.toString());
        assertEquals(0, imported.json().get("existing").asLong(), imported.toString());
        assertEquals("from-bob", imported.json().get("group").asString(), imported.toString());
        assertEquals(before + 4, nodes());

        JsonNode group = admin().get("/api/v1/groups/from-bob?type=core.import").json();
        assertEquals(4, group.get("nodes").asLong(), group.toString());
        Api.Response file = admin().get("/api/v1/nodes/" + theirs.chain().file().uuid() + "/files/answer.txt");
        assertEquals(200, file.status(), file.toString());
        assertEquals(new String(THEIR_CONTENT, StandardCharsets.UTF_8), file.body());
        Api.Response again = upload(admin(), "/api/v1/archive", theirs.archive());
        assertEquals(200, again.status(), again.toString());
        assertEquals(0, again.json().get("added").get("nodes").asLong(), again.toString());
        assertEquals(4, again.json().get("existing").asLong(), again.toString());
    }

    @Test
    @Order(4)
    void onlyAnAdminImportsAndAReadTokenExportsAndInspects() throws Exception {
        chain("roles", true);
        byte[] archive = download(api(token(Role.READ)), "group=roles");
        for (Role role : List.of(Role.READ, Role.SUBMIT)) {
            Api.Response refused = upload(api(token(role)), "/api/v1/archive", archive);
            assertEquals(403, refused.status(), role + ": " + refused);
            assertEquals(
                    "urn:cairn:problem:forbidden", refused.json().get("type").asString());
        }
        assertEquals(
                401, upload(api(null), "/api/v1/archive/inspection", archive).status());
        assertEquals(
                200,
                upload(api(token(Role.READ)), "/api/v1/archive/inspection", archive)
                        .status());
    }

    @Test
    @Order(5)
    void badArchivesAreRefusedNamingWhatIsWrongAndNothingIsImported() throws Exception {
        chain("bad", true);
        byte[] archive = download(admin(), "group=bad");
        long before = nodes();

        byte[] truncated = Arrays.copyOf(archive, archive.length - 40);
        assertRefused(upload(admin(), "/api/v1/archive", truncated), "truncated");
        assertRefused(upload(admin(), "/api/v1/archive/inspection", truncated), "truncated");

        byte[] flipped = archive.clone();
        for (int i = flipped.length / 2; i < flipped.length / 2 + 8; i++) {
            flipped[i] ^= (byte) 0x5a;
        }
        for (String path : List.of("/api/v1/archive", "/api/v1/archive/inspection")) {
            Api.Response r = upload(admin(), path, flipped);
            assertRefused(r, "");
            String detail = r.json().get("detail").asString();
            // a damaged chunk, a frame's length, a checksum: the detail names the part or the archive
            assertTrue(detail.contains(" part") || detail.contains("archive"), r.toString());
        }

        byte[] garbage = "this is not an archive at all".getBytes(StandardCharsets.UTF_8);
        assertRefused(upload(admin(), "/api/v1/archive", garbage), "not an archive");
        assertRefused(upload(admin(), "/api/v1/archive", new byte[0]), "the body is empty");
        assertRefused(upload(admin(), "/api/v1/archive?merge_extras=xyz", archive), "merge mode");
        assertRefused(upload(admin(), "/api/v1/archive?merge_comments=sometimes", archive), "sometimes");
        assertEquals(before, nodes(), "nothing was imported");
    }

    static void assertRefused(Api.Response r, String detail) {
        assertEquals(400, r.status(), r.toString());
        assertEquals("urn:cairn:problem:invalid-input", r.json().get("type").asString(), r.toString());
        assertTrue(r.json().get("detail").asString().contains(detail), r.toString());
    }

    @Test
    @Order(6)
    void anExportNamingNothingOrWhatIsNotThereIsRefusedBeforeAByteIsSent() {
        Api reader = api(token(Role.READ));
        assertRefused(reader.get("/api/v1/archive"), "nothing to export");
        assertRefused(reader.get("/api/v1/archive?all=true&group=mine"), "all=true");
        assertRefused(reader.get("/api/v1/archive?group=no-such-group"), "parameter 'group': no group");
        assertRefused(reader.get("/api/v1/archive?node=999999999"), "parameter 'node'");
        assertRefused(reader.get("/api/v1/archive?computer=nowhere"), "parameter 'computer'");
        assertRefused(reader.get("/api/v1/archive?code=nothing@nowhere"), "parameter 'code'");
        assertRefused(reader.get("/api/v1/archive?group=mine&disable=create_forward"), "create_forward");
        assertRefused(reader.get("/api/v1/archive?group=mine&format=tar"), "unknown archive format 'tar'");
        Api.Response enabled = reader.get("/api/v1/archive?group=mine&enable=input_calc_forward&dry_run=true");
        assertEquals(200, enabled.status(), enabled.toString());
        assertTrue(
                enabled.json()
                        .get("parameters")
                        .get("traversal_rules")
                        .get("input_calc_forward")
                        .asBoolean(),
                enabled.toString());
    }

    @Test
    @Order(7)
    void anExportHoldingAProcessThatHasNotEndedIsAConflictNamingIt() throws Exception {
        Chain running = chain("running", false);
        Api.Response refused = api(token(Role.READ)).get("/api/v1/archive?group=running");
        assertEquals(409, refused.status(), refused.toString());
        assertTrue(
                refused.json()
                        .get("detail")
                        .asString()
                        .contains(running.calc().uuid().toString()),
                refused.toString());
        assertEquals("application/problem+json", refused.header("Content-Type"));
    }

    @Test
    @Order(8)
    void anImportAskedForAsNdjsonTellsItsProgressThenWhatItAddedOrWhyNothing() throws Exception {
        chain("lines", true);
        byte[] archive = download(admin(), "group=lines");
        long before = nodes();

        List<JsonNode> lines = ndjson(uploadForLines(archive));
        JsonNode last = lines.getLast();
        assertEquals(4, last.get("done").get("existing").asLong(), last.toString());
        assertEquals(0, last.get("done").get("added").get("nodes").asLong(), last.toString());
        assertTrue(
                lines.stream()
                        .anyMatch(l -> "nodes".equals(l.path("part").asString())
                                && l.get("done").asLong() == 4
                                && l.get("total").asLong() == 4),
                "the nodes part read to its end: " + lines);
        assertTrue(
                lines.stream()
                        .anyMatch(l -> "links inserted".equals(l.path("step").asString())),
                "the steps after the rows: " + lines);
        assertTrue(lines.stream().anyMatch(l -> "commit".equals(l.path("step").asString())), lines.toString());

        byte[] truncated = Arrays.copyOf(archive, archive.length - 40);
        Answer cut = uploadForLines(truncated);
        assertEquals(200, cut.statusCode(), "the lines had begun: the failure is the last line");
        JsonNode problem = ndjson(cut).getLast();
        assertEquals(400, problem.get("status").asInt(), problem.toString());
        assertEquals("urn:cairn:problem:invalid-input", problem.get("type").asString(), problem.toString());
        assertTrue(problem.get("detail").asString().contains("truncated"), problem.toString());

        Answer garbage = uploadForLines("not an archive".getBytes(StandardCharsets.UTF_8));
        assertEquals(400, garbage.statusCode(), "refused before a line: " + garbage.body());
        assertTrue(garbage.body().contains("not an archive"), garbage.body());
        assertEquals(before, nodes(), "nothing was imported");
    }

    /** An answer read whole: its status, type and text. */
    record Answer(int statusCode, String type, String body) {}

    Answer uploadForLines(byte[] archive) throws IOException {
        HttpResponse<InputStream> r = admin().stream(admin().request("/api/v1/archive")
                .header("Content-Type", "application/octet-stream")
                .header("Accept", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofByteArray(archive)));
        try (InputStream in = r.body()) {
            return new Answer(
                    r.statusCode(),
                    r.headers().firstValue("Content-Type").orElse(""),
                    new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    static List<JsonNode> ndjson(Answer r) {
        assertEquals("application/x-ndjson", r.type(), r.body());
        return r.body().lines().map(JSON::readTree).toList();
    }
}
