package dev.cairn.api.data;

import static java.net.http.HttpRequest.BodyPublishers.ofByteArray;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.api.testing.Multipart;
import dev.cairn.storage.graph.ArrayData;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.NpyArray;
import dev.cairn.storage.graph.SinglefileData;
import dev.cairn.storage.graph.users.UserStore;

/**
 * POST /api/v1/nodes and /api/v1/nodes/files: data nodes from JSON and from uploads, made as the
 * token's user; every bad request is refused naming what was wrong and leaves no node and no
 * object behind. The upload limit is 1 MB here.
 */
class DataUploadIT extends ApiTest {

    static final int LIMIT = 1 << 20;

    @DynamicPropertySource
    static void limits(DynamicPropertyRegistry registry) {
        registry.add("cairn.limits.upload-max-size", () -> "1MB");
    }

    /** What a refused request must leave as it was: the nodes, and the objects in the store. */
    record Stored(long nodes, long objects) {}

    Stored stored() throws SQLException, IOException {
        long nodes;
        try (Connection c = engine.database().connection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM node")) {
            rs.next();
            nodes = rs.getLong(1);
        }
        long objects;
        try (Stream<Path> files = Files.walk(dataDir.resolve("objects"))) {
            objects = files.filter(Files::isRegularFile)
                    .filter(p ->
                            p.toString().contains("/loose/") || p.toString().contains("/sandbox/"))
                    .count();
        }
        return new Stored(nodes, objects);
    }

    Api bob() {
        long bob = new UserStore(engine.database())
                .findByEmail("bob@example.org")
                .orElseGet(() -> new UserStore(engine.database()).create("bob@example.org", "Bob", "", ""))
                .id();
        return api(tokens.create(bob, "bob", EnumSet.of(Role.SUBMIT), null).secret());
    }

    JsonNode created(Api.Response r) {
        assertEquals(201, r.status(), r.toString());
        assertEquals("/api/v1/nodes/" + r.json().get("uuid").asString(), r.header("Location"));
        return r.json();
    }

    @Test
    void everyValueTypeIsMadeFromJsonAsTheTokensUser() {
        Api bob = bob();
        JsonNode i = created(
                bob.post(
                        "/api/v1/nodes",
                        "{\"type\": \"int\", \"value\": 3, \"label\": \"x\", \"description\": \"three\", \"extras\": {\"k\": 1}}"));
        assertEquals("data.core.int.Int.", i.get("node_type").asString());
        assertEquals(3, i.get("attributes").get("value").asInt());
        assertEquals("x", i.get("label").asString());
        assertEquals("three", i.get("description").asString());
        assertEquals(1, i.get("extras").get("k").asInt());
        assertEquals("bob@example.org", i.get("user").asString());
        Node stored = engine.graph().load(UUID.fromString(i.get("uuid").asString()));
        assertEquals(
                new UserStore(engine.database())
                        .findByEmail("bob@example.org")
                        .orElseThrow()
                        .id(),
                stored.userId());

        assertEquals(
                2.5,
                created(bob.post("/api/v1/nodes", "{\"type\": \"float\", \"value\": 2.5}"))
                        .get("attributes")
                        .get("value")
                        .asDouble());
        assertEquals(
                "fast",
                created(bob.post("/api/v1/nodes", "{\"type\": \"str\", \"value\": \"fast\"}"))
                        .get("attributes")
                        .get("value")
                        .asString());
        assertTrue(created(bob.post("/api/v1/nodes", "{\"type\": \"bool\", \"value\": true}"))
                .get("attributes")
                .get("value")
                .asBoolean());
        assertEquals(
                "mv",
                created(bob.post("/api/v1/nodes", "{\"type\": \"dict\", \"value\": {\"smearing\": \"mv\"}}"))
                        .get("attributes")
                        .get("smearing")
                        .asString());
        assertEquals(
                3,
                created(bob.post("/api/v1/nodes", "{\"type\": \"list\", \"value\": [1, \"a\", null]}"))
                        .get("attributes")
                        .get("list")
                        .size());
        JsonNode s = created(bob.post(
                "/api/v1/nodes",
                "{\"type\": \"structure\", \"value\": {\"cell\": [[4,0,0],[0,4,0],[0,0,4]], \"pbc1\": true,"
                        + " \"pbc2\": true, \"pbc3\": true, \"kinds\": [{\"name\": \"Si\", \"symbols\": [\"Si\"],"
                        + " \"weights\": [1.0], \"mass\": 28.085}], \"sites\": [{\"kind_name\": \"Si\","
                        + " \"position\": [0, 0, 0]}]}}"));
        assertEquals("data.core.structure.StructureData.", s.get("node_type").asString());
        assertEquals(1, s.get("attributes").get("sites").size());
    }

    void assertRefused(int status, String inDetail, Supplier<Api.Response> request) throws Exception {
        Stored before = stored();
        Api.Response r = request.get();
        assertEquals(status, r.status(), r.toString());
        assertTrue(r.json().get("detail").asString().contains(inDetail), r + " should say " + inDetail);
        assertEquals(before, stored(), "a refused request leaves no node and no object behind");
    }

    @Test
    void badJsonIsRefusedNamingWhatWasWrongAndStoresNothing() throws Exception {
        Api api = admin();
        assertRefused(400, "malformed JSON", () -> api.post("/api/v1/nodes", "{\"type\": \"int\", \"value\": "));
        assertRefused(
                400,
                "unknown field 'colour'",
                () -> api.post("/api/v1/nodes", "{\"type\": \"int\", \"value\": 3," + " \"colour\": \"red\"}"));
        assertRefused(
                400,
                "unknown data type 'quark'",
                () -> api.post("/api/v1/nodes", "{\"type\": \"quark\"," + " \"value\": 3}"));
        assertRefused(400, "field 'type' is required", () -> api.post("/api/v1/nodes", "{\"value\": 3}"));
        assertRefused(400, "field 'value' is required", () -> api.post("/api/v1/nodes", "{\"type\": \"int\"}"));
        assertRefused(
                400,
                "field 'value': takes an integer, {\"value\": integer} (IntData), got a string",
                () -> api.post("/api/v1/nodes", "{\"type\": \"int\", \"value\": \"three\"}"));
        assertRefused(
                400,
                "field 'label': expected a string, got number",
                () -> api.post("/api/v1/nodes", "{\"type\":" + " \"int\", \"value\": 3, \"label\": 3}"));
        assertRefused(
                400,
                "field 'extras': expected an object",
                () -> api.post("/api/v1/nodes", "{\"type\": \"int\"," + " \"value\": 3, \"extras\": [1]}"));
        assertRefused(400, "a.b", () -> api.post("/api/v1/nodes", "{\"type\": \"dict\", \"value\": {\"a.b\": 1}}"));
        assertRefused(
                400,
                "Fe",
                () -> api.post(
                        "/api/v1/nodes",
                        "{\"type\": \"structure\", \"value\": {\"cell\":"
                                + " [[4,0,0],[0,4,0],[0,0,4]], \"pbc1\": true, \"pbc2\": true, \"pbc3\": true, \"kinds\": [],"
                                + " \"sites\": [{\"kind_name\": \"Fe\", \"position\": [0, 0, 0]}]}}"));
        assertRefused(400, "the body must be an object", () -> api.post("/api/v1/nodes", "[1]"));
        Api.Response read = api(token(Role.READ)).post("/api/v1/nodes", "{\"type\": \"int\", \"value\": 3}");
        assertEquals(403, read.status(), read.toString());
    }

    @Test
    void oneFileMakesASinglefileDataAndSeveralAFolderData() {
        JsonNode one = created(new Multipart()
                .file("file", "in.txt", "hello".getBytes(StandardCharsets.UTF_8))
                .post(bob(), "/api/v1/nodes/files?label=input"));
        assertEquals(
                "data.core.singlefile.SinglefileData.", one.get("node_type").asString());
        assertEquals("in.txt", one.get("attributes").get("filename").asString());
        assertEquals("input", one.get("label").asString());
        assertEquals("bob@example.org", one.get("user").asString());
        SinglefileData stored = (SinglefileData)
                engine.graph().load(UUID.fromString(one.get("uuid").asString()));
        assertEquals("hello", new String(engine.graph().readFile(stored, "in.txt"), StandardCharsets.UTF_8));

        JsonNode many = created(new Multipart()
                .file("file", "a.txt", "a".getBytes(StandardCharsets.UTF_8))
                .file("file", "out/b.txt", "b".getBytes(StandardCharsets.UTF_8))
                .post(admin(), "/api/v1/nodes/files"));
        assertEquals("data.core.folder.FolderData.", many.get("node_type").asString());
        assertEquals(2, many.get("files").get("count").asInt());

        JsonNode forced = created(new Multipart()
                .file("file", "only.txt", "x".getBytes(StandardCharsets.UTF_8))
                .post(admin(), "/api/v1/nodes/files?folder=true"));
        assertEquals("data.core.folder.FolderData.", forced.get("node_type").asString());
    }

    @Test
    void npyFilesMakeAnArrayDataCheckedBeforeAnythingIsStored() throws Exception {
        byte[] energies =
                NpyArray.of(new double[] {-1.5, -2.5, -3.5, 0, 1, 2}, 2, 3).toBytes();
        byte[] counts = NpyArray.of(new long[] {4, 5}, 2).toBytes();
        JsonNode node = created(new Multipart()
                .file("file", "energies.npy", energies)
                .file("file", "counts.npy", counts)
                .post(bob(), "/api/v1/nodes/files?array=true&label=scan"));
        assertEquals("data.core.array.ArrayData.", node.get("node_type").asString());
        assertEquals("[2,3]", node.get("attributes").get("array|energies").toString());
        assertEquals("[2]", node.get("attributes").get("array|counts").toString());
        ArrayData stored =
                (ArrayData) engine.graph().load(UUID.fromString(node.get("uuid").asString()));
        assertEquals(
                List.of(-1.5, -2.5, -3.5, 0.0, 1.0, 2.0),
                Arrays.stream(NpyArray.fromBytes(engine.graph().readFile(stored, "energies.npy"))
                                .doubles())
                        .boxed()
                        .toList());

        Api api = admin();
        byte[] float32 = energies.clone();
        float32[23] = '4'; // <f8 to <f4
        assertRefused(
                400,
                "energies.npy: unsupported .npy header (float64 or int64",
                () -> new Multipart()
                        .file("file", "energies.npy", float32)
                        .post(api, "/api/v1/nodes/files?array=true"));
        assertRefused(
                400,
                "the upload: cut.npy: the header's shape (2, 3) needs 176 bytes, the file has 168",
                () -> new Multipart()
                        .file("file", "counts.npy", counts)
                        .file("file", "cut.npy", Arrays.copyOf(energies, energies.length - 8))
                        .post(api, "/api/v1/nodes/files?array=true"));
        assertRefused(
                400,
                "the upload: 'a-b.npy' is no array's file",
                () -> new Multipart().file("file", "a-b.npy", counts).post(api, "/api/v1/nodes/files?array=true"));
        assertRefused(
                400,
                "not an .npy file",
                () -> new Multipart()
                        .file("file", "text.npy", "hello".getBytes(StandardCharsets.UTF_8))
                        .post(api, "/api/v1/nodes/files?array=true"));
        JsonNode raw = created(raw(api, "name=energies.npy&array=true", ofByteArray(energies)));
        assertEquals("[2,3]", raw.get("attributes").get("array|energies").toString());
        JsonNode chunked = created(raw(api, "name=e.npy&array=true", chunked(energies)));
        assertEquals("[2,3]", chunked.get("attributes").get("array|e").toString());
        assertRefused(
                400,
                "e.npy: the header's shape (2, 3) needs 176 bytes, the body has 168",
                () -> raw(api, "name=e.npy&array=true", ofByteArray(Arrays.copyOf(energies, 168))));
        assertRefused(
                400,
                "e.npy: the header's shape (2, 3) needs 176 bytes, the body ended after 168",
                () -> raw(api, "name=e.npy&array=true", chunked(Arrays.copyOf(energies, 168))));
        assertRefused(
                400,
                "e.npy: the header's shape (2, 3) needs 176 bytes, the body is longer",
                () -> raw(api, "name=e.npy&array=true", chunked(Arrays.copyOf(energies, 184))));
        assertRefused(400, "'name' is required", () -> raw(api, "array=true", ofByteArray(energies)));
        assertRefused(
                400,
                "exclude each other",
                () -> new Multipart()
                        .file("file", "counts.npy", counts)
                        .post(api, "/api/v1/nodes/files?array=true&folder=true"));
    }

    /** A body of unknown length, sent chunked. */
    static HttpRequest.BodyPublisher chunked(byte[] content) {
        return HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(content));
    }

    Api.Response raw(Api api, String query, HttpRequest.BodyPublisher body) {
        return api.send(api.request("/api/v1/nodes/files?" + query)
                .header("Content-Type", "application/octet-stream")
                .POST(body));
    }

    @Test
    void aRawBodyMakesASinglefileData() {
        JsonNode node = created(raw(admin(), "name=data.bin", HttpRequest.BodyPublishers.ofByteArray(new byte[1000])));
        assertEquals("data.bin", node.get("attributes").get("filename").asString());
        JsonNode chunked = created(raw(
                admin(),
                "name=chunked.bin",
                HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(new byte[LIMIT]))));
        assertEquals(1, chunked.get("files").get("count").asInt());
    }

    @Test
    void badNamesAreRefusedAndLeaveNothingBehind() throws Exception {
        for (String name : List.of("../x.txt", "a/../../x.txt", "/etc/passwd", "a//b.txt", "./a.txt")) {
            assertRefused(
                    400,
                    "is refused",
                    () -> new Multipart()
                            .file("file", "ok.txt", "fine".getBytes(StandardCharsets.UTF_8))
                            .file("file", name, "bad".getBytes(StandardCharsets.UTF_8))
                            .post(admin(), "/api/v1/nodes/files"));
        }
        assertRefused(
                400,
                "comes twice",
                () -> new Multipart()
                        .file("file", "a.txt", "1".getBytes(StandardCharsets.UTF_8))
                        .file("file", "a.txt", "2".getBytes(StandardCharsets.UTF_8))
                        .post(admin(), "/api/v1/nodes/files"));
        assertRefused(400, "is refused", () -> raw(admin(), "name=..%2Fx", HttpRequest.BodyPublishers.ofString("x")));
        assertRefused(400, "backslash", () -> raw(admin(), "name=a%5Cb", HttpRequest.BodyPublishers.ofString("x")));
        assertRefused(400, "is one name", () -> raw(admin(), "name=a%2Fb", HttpRequest.BodyPublishers.ofString("x")));
        assertRefused(400, "'name'", () -> raw(admin(), "label=x", HttpRequest.BodyPublishers.ofString("x")));
    }

    @Test
    void anUploadOverTheLimitIsRefusedWith413AndLeavesNothingBehind() throws Exception {
        byte[] tooBig = new byte[LIMIT + 1000];
        assertRefused(
                413,
                "larger than the server takes",
                () -> new Multipart().file("file", "big.bin", tooBig).post(admin(), "/api/v1/nodes/files"));
        assertRefused(
                413,
                "larger than the server takes",
                () -> raw(admin(), "name=big.bin", HttpRequest.BodyPublishers.ofByteArray(tooBig)));
        // a chunked body declares no length: it is counted as it comes
        assertRefused(
                413,
                "larger than the server takes",
                () -> raw(
                        admin(),
                        "name=big.bin",
                        HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(tooBig))));
    }
}
