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
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.api.testing.Multipart;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ObjectKey;

/**
 * {@code /api/v1/storage}: counts, maintenance (a dry run changes nothing, a run packs, a full run keeps
 * every object a node refers to and deletes an old unreferenced one), validation finding a missing
 * object, roles, and bodies refused with the field named.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StorageIT extends ApiTest {

    static final byte[] BIG = new byte[300_000];

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

        JsonNode run = maintain("{}");
        assertEquals(loose, run.get("objectsPacked").asLong(), run.toString());
        assertEquals(0, run.get("after").get("looseObjects").asLong(), run.toString());
        assertEquals(loose, run.get("after").get("packedObjects").asLong(), run.toString());
    }

    @Test
    @Order(2)
    void aFullRunKeepsEveryReferencedObjectAndDeletesAnOldUnreferencedOne() throws Exception {
        new Random(11).nextBytes(BIG);
        String big = upload("big.bin", BIG);
        String small = upload("small.txt", "kept\tbytes\n".getBytes(StandardCharsets.UTF_8));
        Container store = engine.graph().objectStore();
        ObjectKey orphan = store.put("no node refers to this".getBytes(StandardCharsets.UTF_8));
        ObjectKey young = store.put("stored a moment ago".getBytes(StandardCharsets.UTF_8));
        Path loose = store.root()
                .resolve("loose")
                .resolve(orphan.toString().substring(0, 2))
                .resolve(orphan.toString().substring(2));
        assertTrue(Files.isRegularFile(loose), loose.toString());
        Files.setLastModifiedTime(loose, FileTime.from(Instant.now().minus(2, ChronoUnit.HOURS)));

        JsonNode dry = maintain("{\"full\": true, \"dryRun\": true}");
        assertTrue(dry.get("actions").toString().contains("would delete 1 unreferenced"), dry.toString());
        assertTrue(store.contains(orphan));

        JsonNode full = maintain("{\"full\": true}");
        assertEquals(1, full.get("unreferencedDeleted").asLong(), full.toString());
        assertFalse(store.contains(orphan), "the old unreferenced object is gone");
        assertTrue(store.contains(young), "an unreferenced object younger than an hour stays");

        JsonNode valid = admin().post("/api/v1/storage/validation", "").json();
        assertTrue(valid.get("valid").asBoolean(), valid.toString());
        Api reader = api(token(Role.READ));
        Api.Response a = reader.get("/api/v1/nodes/" + small + "/files/small.txt");
        assertEquals("kept\tbytes\n", a.body());
        byte[] read = reader.stream(reader.request("/api/v1/nodes/" + big + "/files/big.bin")
                        .GET())
                .body()
                .readAllBytes();
        assertArrayEquals(BIG, read);
        JsonNode after = reader.get("/api/v1/storage").json().get("objects");
        // packed: alpha, beta, the big and the small file, and the young unreferenced object
        assertEquals(0, after.get("looseObjects").asLong(), after.toString());
        assertEquals(5, after.get("packedObjects").asLong(), after.toString());
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
}
