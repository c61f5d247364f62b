package dev.cairn.api.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.api.testing.Multipart;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ObjectKey;

/**
 * {@code /api/v1/storage}: counts, maintenance (a dry run changes nothing, a run packs, a full run keeps
 * every object a node refers to and marks the unreferenced ones, a full run a grace later deletes those
 * still unreferenced and unmarks one a node refers to again), validation finding a missing object, roles,
 * and bodies refused with the field named.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StorageIT extends ApiTest {

    static final byte[] BIG = new byte[300_000];
    /** The deletion grace of this server: short, so that a test can wait it out. */
    static final Duration GRACE = Duration.ofSeconds(3);

    @DynamicPropertySource
    static void grace(DynamicPropertyRegistry registry) {
        registry.add("cairn.store.deletion-grace", () -> GRACE.toSeconds() + "s");
    }

    @TempDir
    Path work;

    private String upload(String name, byte[] content) {
        Api.Response made = new Multipart().file("file", name, content).post(admin(), "/api/v1/nodes/files");
        assertEquals(201, made.status(), made.toString());
        return made.json().get("uuid").asString();
    }

    private JsonNode maintain(String body) {
        Api.Response r = admin().post("/api/v1/storage/maintenance", body);
        assertEquals(200, r.status(), r.toString());
        return r.json();
    }

    @Test
    @Order(1)
    void infoCountsAndMaintenancePacksOnlyWhenNotADryRun() {
        upload("a.txt", "alpha".getBytes(StandardCharsets.UTF_8));
        upload("b.txt", "beta".getBytes(StandardCharsets.UTF_8));
        JsonNode info =
                api(token(Role.READ)).get("/api/v1/storage?detailed=true").json();
        assertTrue(info.get("nodes").asLong() >= 2, info.toString());
        assertTrue(info.get("users").asLong() >= 1, info.toString());
        assertTrue(info.get("objects").get("looseObjects").asLong() >= 2, info.toString());
        assertFalse(info.get("schemaVersion").asString().isBlank());
        assertTrue(
                info.get("nodeTypes")
                                .get("data.core.singlefile.SinglefileData.")
                                .asLong()
                        >= 2,
                info.toString());

        long loose = info.get("objects").get("looseObjects").asLong();
        JsonNode dry = maintain("{\"dryRun\": true}");
        assertTrue(dry.get("dryRun").asBoolean());
        assertEquals(0, dry.get("objectsPacked").asLong());
        assertEquals(dry.get("before"), dry.get("after"));
        assertFalse(admin().get("/api/v1/storage").json().has("nodeTypes"), "nodeTypes only when detailed");
        JsonNode unchanged = admin().get("/api/v1/storage").json().get("objects");
        assertEquals(loose, unchanged.get("looseObjects").asLong(), unchanged.toString());
        assertEquals(0, unchanged.get("packedObjects").asLong(), unchanged.toString());

        // asked for as lines: each step as it begins, then the report
        Api.Response lines = admin().send(admin().request("/api/v1/storage/maintenance")
                .header("Content-Type", "application/json")
                .header("Accept", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofString("{}")));
        assertEquals(200, lines.status(), lines.toString());
        assertTrue(lines.header("Content-Type").startsWith("application/x-ndjson"), lines.toString());
        List<JsonNode> answer =
                lines.body().lines().map(l -> Api.json().readTree(l)).toList();
        assertEquals(3, answer.size(), lines.body());
        assertEquals(
                "packing " + loose + " loose objects", answer.get(0).get("step").asString(), lines.body());
        assertEquals(
                List.of(1, 2),
                List.of(
                        answer.get(0).get("index").asInt(),
                        answer.get(0).get("of").asInt()));
        assertEquals(2, answer.get(1).get("index").asInt(), lines.body());
        JsonNode run = answer.get(2).get("done");
        assertEquals(loose, run.get("objectsPacked").asLong(), run.toString());
        assertEquals(0, run.get("after").get("looseObjects").asLong(), run.toString());
        assertEquals(loose, run.get("after").get("packedObjects").asLong(), run.toString());
    }

    @Test
    @Order(2)
    void fullRunsMarkUnreferencedObjectsAndDeleteThemOnlyAfterTheGrace() throws Exception {
        new Random(11).nextBytes(BIG);
        String big = upload("big.bin", BIG);
        String small = upload("small.txt", "kept\tbytes\n".getBytes(StandardCharsets.UTF_8));
        Container store = engine.graph().objectStore();
        byte[] orphanBytes = "no node refers to this".getBytes(StandardCharsets.UTF_8);
        byte[] revivedBytes = "a node will refer to this again".getBytes(StandardCharsets.UTF_8);
        ObjectKey orphan = store.put(orphanBytes);
        ObjectKey revived = store.put(revivedBytes);
        for (ObjectKey old : List.of(orphan, revived)) {
            Files.setLastModifiedTime(
                    loose(store, old), FileTime.from(Instant.now().minus(1, ChronoUnit.HOURS)));
        }

        JsonNode dry = maintain("{\"full\": true, \"dryRun\": true}");
        String dryActions = dry.get("actions").toString();
        assertTrue(
                dryActions.contains("would mark 2 unreferenced objects for deletion (deleted after 3 s"), dryActions);
        assertTrue(dryActions.contains("would delete 0 objects marked"), dryActions);
        assertEquals(3, dry.get("deletionGraceSeconds").asLong(), dry.toString());

        ObjectKey young = store.put("stored a moment ago".getBytes(StandardCharsets.UTF_8));
        JsonNode first = maintain("{\"full\": true}");
        assertEquals(2, first.get("unreferencedMarked").asLong(), first.toString());
        assertEquals(0, first.get("unreferencedDeleted").asLong(), first.toString());
        assertEquals(1, first.get("recentlyStored").asLong(), "the young object is left unmarked: " + first);
        assertEquals(2, first.get("pendingDeletion").asLong(), first.toString());
        assertTrue(
                first.get("actions").toString().contains("mark 2 unreferenced objects for deletion"), first.toString());
        assertArrayEquals(orphanBytes, store.get(orphan), "a marked object stays readable");

        // A node stored now with a marked object's bytes stores them again rather than count on the marked copy.
        String node = upload("again.txt", revivedBytes);
        FileTime copied = Files.getLastModifiedTime(loose(store, revived));
        assertTrue(copied.toInstant().isAfter(Instant.now().minusSeconds(60)), "a fresh loose copy: " + copied);
        Thread.sleep(GRACE.plusSeconds(1).plusMillis(500).toMillis());

        JsonNode second = maintain("{\"full\": true}");
        assertEquals(1, second.get("unreferencedDeleted").asLong(), second.toString());
        assertEquals(1, second.get("unmarked").asLong(), "the object a node refers to again: " + second);
        assertEquals(1, second.get("unreferencedMarked").asLong(), "the young object, packed since: " + second);
        assertTrue(
                second.get("actions").toString().contains("delete 1 objects marked for deletion at least 3 s ago"),
                second.toString());
        assertFalse(store.contains(orphan), "the object marked a grace ago and still unreferenced is gone");
        assertTrue(store.contains(young), "marked now, deleted by a later run");

        JsonNode valid = admin().post("/api/v1/storage/validation", "").json();
        assertTrue(valid.get("valid").asBoolean(), valid.toString());
        Api reader = api(token(Role.READ));
        Api.Response a = reader.get("/api/v1/nodes/" + small + "/files/small.txt");
        assertEquals("kept\tbytes\n", a.body());
        assertEquals(
                new String(revivedBytes, StandardCharsets.UTF_8),
                reader.get("/api/v1/nodes/" + node + "/files/again.txt").body());
        byte[] read = reader.stream(reader.request("/api/v1/nodes/" + big + "/files/big.bin")
                        .GET())
                .body()
                .readAllBytes();
        assertArrayEquals(BIG, read);
        JsonNode after = reader.get("/api/v1/storage").json().get("objects");
        // packed: alpha, beta, the big and the small file, the young object and the one referenced again
        assertEquals(6, after.get("packedObjects").asLong(), after.toString());
        assertEquals(0, after.get("looseObjects").asLong(), after.toString());
    }

    private static Path loose(Container store, ObjectKey key) {
        return store.root()
                .resolve("loose")
                .resolve(key.toString().substring(0, 2))
                .resolve(key.toString().substring(2));
    }

    @Test
    @Order(3)
    void validationReportsAnObjectTheGraphRefersToButTheStoreLacks() throws Exception {
        String node = upload("lost.txt", "soon gone".getBytes(StandardCharsets.UTF_8));
        Container store = engine.graph().objectStore();
        ObjectKey key = ObjectKey.of(admin().get("/api/v1/nodes/" + node + "/files")
                .json()
                .get("entries")
                .get(0)
                .get("key")
                .asString());
        assertEquals(1, store.delete(List.of(key)));
        JsonNode report = admin().post("/api/v1/storage/validation", "").json();
        assertFalse(report.get("valid").asBoolean(), report.toString());
        JsonNode fault = report.get("faults").get(0);
        assertEquals("missing", fault.get("kind").asString());
        assertEquals(key.toString(), fault.get("key").asString());
        assertTrue(fault.get("where").asString().contains(node), fault.toString());
        store.put("soon gone".getBytes(StandardCharsets.UTF_8));
        assertTrue(admin().post("/api/v1/storage/validation", "")
                .json()
                .get("valid")
                .asBoolean());
    }

    @Test
    @Order(4)
    void readCannotMaintainValidateOrBackUp() {
        Api reader = api(token(Role.READ));
        assertEquals(200, reader.get("/api/v1/storage").status());
        for (String path : new String[] {"maintenance", "validation", "backups"}) {
            Api.Response r = reader.post("/api/v1/storage/" + path, "{}");
            assertEquals(403, r.status(), path + ": " + r);
        }
        Api.Response none = api(null).get("/api/v1/storage");
        assertEquals(401, none.status(), none.toString());
    }

    @Test
    @Order(5)
    void badBodiesAre400sNamingTheField() throws Exception {
        assertProblem(admin().post("/api/v1/storage/maintenance", "{\"full\": \"yes\"}"), "'full'");
        assertProblem(admin().post("/api/v1/storage/maintenance", "{\"dryRun\": [1]}"), "'dryRun'");
        assertEquals(400, admin().post("/api/v1/storage/maintenance", "null").status());
        Path file = Files.writeString(work.resolve("a-file"), "x");
        Path busy = Files.createDirectories(work.resolve("busy"));
        Files.writeString(busy.resolve("notes.txt"), "mine");
        for (String body : new String[] {
            "{}",
            "{\"destination\": \"\"}",
            "{\"destination\": \"relative/backups\"}",
            "{\"destination\": \"" + file + "\"}",
            "{\"destination\": \"" + busy + "\"}",
            "{\"destination\": \"" + work + "/no/such/parent\"}",
            "{\"destination\": \"" + work + "/../escape\"}",
            "{\"destination\": \"" + work + "/backups\", \"keep\": -1}"
        }) {
            Api.Response r = backup(body);
            assertProblem(r, body.contains("keep") ? "'keep'" : "'destination'");
        }
        assertProblem(backup("{\"destination\": \"" + work + "\", \"keep\": \"all\"}"), "'keep'");
        assertEquals("mine", Files.readString(busy.resolve("notes.txt")));
        assertFalse(Files.exists(work.resolve("backups")));
        assertFalse(Files.exists(work.resolve("no")));
    }

    @Test
    @Order(6)
    void aBackupGoesIntoANewFolderAndAgainIntoItsFolderOfBackups() throws Exception {
        Path dest = work.resolve("backups");
        for (int i = 0; i < 2; i++) {
            Api.Response r = backup("{\"destination\": \"" + dest + "\", \"keep\": 1}");
            assertEquals(200, r.status(), r.toString());
            String last = r.body().strip().lines().reduce((x, y) -> y).orElseThrow();
            assertTrue(last.startsWith("{\"done\""), r.body());
        }
        assertTrue(Files.isSymbolicLink(dest.resolve("last")));
    }

    private Api.Response backup(String body) {
        Api admin = admin();
        return admin.send(admin.request("/api/v1/storage/backups")
                .header("Content-Type", "application/json")
                .header("Accept", StorageController.NDJSON)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    private static void assertProblem(Api.Response r, String names) {
        assertEquals(400, r.status(), r.toString());
        assertTrue(r.body().contains(names), names + " in " + r);
    }

    @Test
    @Order(20)
    void attributeIndexesAreDeclaredListedAndDroppedByAdminsOnly() {
        Api reader = api(token(Role.READ));
        Api.Response made =
                admin().post("/api/v1/storage/attribute-indexes", "{\"key\": \"energy\", \"type\": \"number\"}");
        assertEquals(200, made.status(), made.toString());
        assertEquals("energy", made.json().get("key").asString());
        assertEquals("number", made.json().get("type").asString());
        assertEquals("ready", made.json().get("state").asString());
        String name = made.json().get("name").asString();
        assertTrue(name.startsWith("node_attrindex_number_"), name);

        JsonNode listed =
                admin().get("/api/v1/storage/attribute-indexes").json().get("items");
        assertEquals(1, listed.size(), listed.toString());
        assertEquals(made.json(), listed.get(0));
        assertEquals(403, reader.get("/api/v1/storage/attribute-indexes").status());
        assertEquals(
                403,
                reader.delete("/api/v1/storage/attribute-indexes?key=energy&type=number")
                        .status());
        assertEquals(
                403,
                api(token(Role.SUBMIT))
                        .post("/api/v1/storage/attribute-indexes", "{\"key\": \"x\", \"type\": \"number\"}")
                        .status());

        Api.Response badType =
                admin().post("/api/v1/storage/attribute-indexes", "{\"key\": \"energy\", \"type\": \"boolean\"}");
        assertEquals(400, badType.status(), badType.toString());
        assertEquals("application/problem+json", badType.header("Content-Type"));
        assertTrue(badType.json().get("detail").asString().contains("type 'boolean'"), badType.toString());
        Api.Response badKey =
                admin().post("/api/v1/storage/attribute-indexes", "{\"key\": \"a..b\", \"type\": \"string\"}");
        assertEquals(400, badKey.status(), badKey.toString());
        assertTrue(badKey.json().get("detail").asString().contains("'a..b'"), badKey.toString());
        Api.Response noType = admin().post("/api/v1/storage/attribute-indexes", "{\"key\": \"energy\"}");
        assertEquals(400, noType.status(), noType.toString());
        assertTrue(noType.json().get("detail").asString().contains("needs a type"), noType.toString());

        assertEquals(
                204,
                admin().delete("/api/v1/storage/attribute-indexes?key=energy&type=number")
                        .status());
        assertEquals(
                0,
                admin().get("/api/v1/storage/attribute-indexes")
                        .json()
                        .get("items")
                        .size());
        Api.Response gone = admin().delete("/api/v1/storage/attribute-indexes?key=energy&type=number");
        assertEquals(404, gone.status(), gone.toString());
        assertTrue(
                gone.json().get("detail").asString().contains("no index on attribute 'energy' of type number"),
                gone.toString());
    }
}
