package dev.cairn.api.codes;

import static dev.cairn.api.testing.Refusals.assertRefused;
import static dev.cairn.api.testing.Refusals.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.PortableCode;

/**
 * Codes through the API: installed codes (JSON) and portable ones (multipart) stored, found by
 * uuid, prefix, label@computer and label, listed a page at a time, deleted while no process used
 * them; each kind of bad input refused with its reason and no node stored.
 */
class CodesIT extends ApiTest {

    private static final String CODES = "SELECT count(*) FROM node WHERE node_type LIKE 'data.core.code.%'";

    @BeforeEach
    void computers() {
        for (String label : List.of("alpha", "beta")) {
            localComputer(label, dataDir.resolve(label));
        }
    }

    private static String installed(String label, String computer) {
        return """
                {"label": "%s", "computer": "%s", "executable": "/bin/bash", "description": "bash",
                 "defaultCalcJobPlugin": "arithmetic.add", "prependText": "set -e", "withMpi": false}""".formatted(label, computer);
    }

    @Test
    void anInstalledCodeIsStoredFoundByEveryNameAndDeleted() {
        Api.Response made = admin().post("/api/v1/codes", installed("bash", "alpha"));
        assertEquals(201, made.status(), made.toString());
        JsonNode code = made.json();
        String uuid = code.get("uuid").asString();
        assertEquals("/api/v1/codes/" + uuid, made.header("Location"));
        assertEquals("bash@alpha", code.get("fullLabel").asString());
        assertEquals("installed", code.get("kind").asString());
        assertEquals("alpha", code.get("computer").asString());
        assertEquals("/bin/bash", code.get("executable").asString());
        assertEquals("arithmetic.add", code.get("defaultCalcJobPlugin").asString());
        assertEquals("set -e", code.get("prependText").asString());
        assertFalse(code.get("withMpi").asBoolean());
        assertFalse(code.has("files"));
        // stored as the caller, a node of the graph
        Code stored = (Code) engine.graph().load(UUID.fromString(uuid));
        assertEquals(engine.graph().userId(), stored.userId());

        Api.Response readable = api(token(Role.READ)).get("/api/v1/codes/" + uuid);
        for (String ref : List.of(uuid, uuid.substring(0, 23), "bash@alpha", "bash")) {
            Api.Response r = ref.equals(uuid) ? readable : admin().get("/api/v1/codes/" + ref);
            assertEquals(200, r.status(), ref + ": " + r);
            assertEquals(uuid, r.json().get("uuid").asString(), ref);
        }
        assertEquals(204, admin().delete("/api/v1/codes/bash@alpha").status());
        assertRefused(admin().get("/api/v1/codes/" + uuid), 404, "no node has the uuid " + uuid);
        assertRefused(admin().get("/api/v1/codes/bash@alpha"), 404, "computer 'alpha' has no code labelled 'bash'");
    }

    @Test
    void aPortableCodeIsUploadedWithItsFiles() {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("bin/add.sh", "#!/bin/bash\necho $(( $1 + $2 ))\n");
        files.put("README", "adds two numbers\n");
        Api.Response made =
                upload(files, Map.of("label", "adder", "executable", "bin/add.sh", "description", "a shell adder"));
        assertEquals(201, made.status(), made.toString());
        JsonNode code = made.json();
        assertEquals("portable", code.get("kind").asString());
        assertEquals("adder", code.get("fullLabel").asString());
        assertFalse(code.has("computer"));
        assertEquals(List.of("README", "bin/add.sh"), strings(code.get("files")));
        PortableCode stored = (PortableCode)
                engine.graph().load(UUID.fromString(code.get("uuid").asString()));
        assertEquals(
                files.get("bin/add.sh"),
                new String(engine.graph().readFile(stored, "bin/add.sh"), StandardCharsets.UTF_8));
        assertEquals(
                "bin/add.sh",
                admin().get("/api/v1/codes/adder").json().get("executable").asString());
        assertRefused(
                upload(Map.of("x", "y"), Map.of("label", "adder", "executable", "x")),
                409,
                "a portable code is labelled 'adder' already");
    }

    @Test
    void codesArePagedAndFilteredByComputer() {
        for (String label : List.of("p1", "p2", "p3")) {
            assertEquals(
                    201, admin().post("/api/v1/codes", installed(label, "beta")).status());
        }
        List<String> labels = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode page = admin().get(
                            "/api/v1/codes?computer=beta&limit=2" + (cursor == null ? "" : "&cursor=" + cursor))
                    .json();
            page.get("items").forEach(c -> labels.add(c.get("label").asString()));
            cursor = page.has("next") ? page.get("next").asString() : null;
            pages++;
        } while (cursor != null);
        assertEquals(List.of("p1", "p2", "p3"), labels);
        assertEquals(2, pages);
        assertRefused(admin().get("/api/v1/codes?limit=0"), 400, "limit must be from 1 to");
        assertRefused(admin().get("/api/v1/codes?cursor=nonsense"), 400, "is not a cursor this server made");
        assertRefused(admin().get("/api/v1/codes?computer=gamma"), 400, "no computer is labelled 'gamma'");
    }

    @Test
    void aCodeAProcessUsedStaysAndOneLabelOnTwoComputersMustBeNamedFully() {
        String uuid = admin().post("/api/v1/codes", installed("used", "alpha"))
                .json()
                .get("uuid")
                .asString();
        admin().post("/api/v1/codes", installed("used", "beta"));
        CalcJobNode job = new CalcJobNode("arithmetic.add");
        job.addIncoming(engine.graph().load(UUID.fromString(uuid)), LinkType.INPUT_CALC, "code");
        engine.graph().store(job);

        long codes = count(engine, CODES);
        assertRefused(admin().delete("/api/v1/codes/" + uuid), 409, "code used@alpha", "was used by 1 process");
        assertRefused(
                admin().get("/api/v1/codes/used"),
                409,
                "more than one code is labelled 'used'",
                "used@alpha",
                "used@beta");
        assertEquals(204, admin().delete("/api/v1/codes/used@beta").status());
        assertEquals(codes - 1, count(engine, CODES));
        assertEquals(uuid, admin().get("/api/v1/codes/used").json().get("uuid").asString());
    }

    @Test
    void badCodesAreRefusedWithTheirReasonAndNoNodeIsStored() {
        assertEquals(
                201, admin().post("/api/v1/codes", installed("taken", "alpha")).status());
        long nodes = count(engine, "SELECT count(*) FROM node");

        assertRefused(
                admin().post("/api/v1/codes", installed("taken", "alpha")),
                409,
                "computer 'alpha' has a code labelled 'taken' already");
        assertRefused(
                admin().post("/api/v1/codes", installed("x", "alpha").replace("\"computer\"", "\"computr\"")),
                400,
                "unknown field 'computr'");
        assertRefused(
                admin().post(
                                "/api/v1/codes",
                                installed("x", "alpha").replace("\"withMpi\": false", "\"withMpi\": \"no\"")),
                400,
                "field 'withMpi'");
        assertRefused(
                admin().post("/api/v1/codes", installed("x", "gamma")),
                400,
                "field 'computer': no computer is labelled 'gamma'; the computers are [alpha, beta]");
        assertRefused(
                admin().post("/api/v1/codes", installed("x", "alpha").replace("/bin/bash", "bash")),
                400,
                "an installed code's executable needs an absolute path, got bash");
        assertRefused(
                admin().post("/api/v1/codes", installed("x@y", "alpha")), 400, "a code's label may not contain '@'");
        assertRefused(
                admin().post("/api/v1/codes", installed("x", "alpha").replace("arithmetic.add", "arithmetic.nothing")),
                400,
                "field 'defaultCalcJobPlugin': 'arithmetic.nothing' is not a calculation job;"
                        + " the calculation jobs are [arithmetic.add");
        assertRefused(
                admin().post("/api/v1/codes", installed("x", "alpha").replace("arithmetic.add", "arithmetic.multiply")),
                400,
                "'arithmetic.multiply' is not a calculation job");
        assertRefused(
                upload(Map.of("run.sh", "echo"), Map.of("label", "x", "executable", "main.sh")),
                400,
                "executable 'main.sh' is not in the code's files [run.sh]");
        assertRefused(
                upload(Map.of("../escape.sh", "echo"), Map.of("label", "x", "executable", "../escape.sh")),
                400,
                "'../escape.sh' is not a relative path inside the code");
        assertRefused(upload(Map.of("run.sh", "echo"), Map.of("executable", "run.sh")), 400, "'label'");
        assertRefused(api(token(Role.SUBMIT)).post("/api/v1/codes", installed("y", "alpha")), 403);
        assertEquals(nodes, count(engine, "SELECT count(*) FROM node"));
    }

    private Api.Response upload(Map<String, String> files, Map<String, String> fields) {
        String boundary = "cairn-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        StringBuilder text = new StringBuilder();
        fields.forEach((name, value) -> text.append("--")
                .append(boundary)
                .append("\r\nContent-Disposition: form-data; name=\"")
                .append(name)
                .append("\"\r\n\r\n")
                .append(value)
                .append("\r\n"));
        files.forEach((path, content) -> text.append("--")
                .append(boundary)
                .append("\r\nContent-Disposition: form-data; name=\"files\"; filename=\"")
                .append(path)
                .append("\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                .append(content)
                .append("\r\n"));
        text.append("--").append(boundary).append("--\r\n");
        body.writeBytes(text.toString().getBytes(StandardCharsets.UTF_8));
        Api admin = admin();
        return admin.send(admin.request("/api/v1/codes")
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())));
    }

    private static List<String> strings(JsonNode array) {
        assertNotNull(array);
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asString()));
        assertTrue(out.size() == array.size());
        return out;
    }
}
