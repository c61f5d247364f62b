package dev.cairn.api.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.CalcFunctionNode;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.FolderData;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.Node;

/** GET and PATCH /api/v1/nodes/{ref}: one node in one statement, and changes that are whole or refused. */
class NodeIT extends ApiTest {

    static DictData dict;
    static FolderData folder;
    static CalcFunctionNode calc;

    @BeforeEach
    void fixture() {
        if (dict != null) {
            return;
        }
        dict = new DictData(Map.of("a", 1, "b", List.of(1, 2), "c", Map.of("d", "e")));
        dict.setLabel("params");
        dict.setDescription("the parameters");
        dict.setExtras(Map.of("tag", "x", "n", 5));
        engine.graph().store(dict);
        folder = new FolderData();
        folder.files().put("a.txt", "alpha".getBytes(StandardCharsets.UTF_8));
        folder.files().put("sub/b.txt", "beta".getBytes(StandardCharsets.UTF_8));
        folder.files().put("sub/c.txt", "gamma".getBytes(StandardCharsets.UTF_8));
        engine.graph().store(folder);
        calc = new CalcFunctionNode("arithmetic.add_function");
        calc.addIncoming(dict, LinkType.INPUT_CALC, "x");
        calc.addIncoming(folder, LinkType.INPUT_CALC, "y");
        engine.graph().store(calc);
        IntData out = new IntData(3);
        out.addIncoming(calc, LinkType.CREATE, "result");
        engine.graph().store(out);
    }

    Api reader() {
        return api(token(Role.READ));
    }

    @Test
    void aNodeComesWithAttributesExtrasFilesAndLinkCounts() {
        Api.Response r = reader().get("/api/v1/nodes/" + dict.uuid());
        assertEquals(200, r.status(), r.toString());
        JsonNode n = r.json();
        assertEquals(dict.uuid().toString(), n.get("uuid").asString());
        assertEquals("data.core.dict.Dict.", n.get("node_type").asString());
        assertEquals("params", n.get("label").asString());
        assertEquals("the parameters", n.get("description").asString());
        assertEquals("engine@localhost", n.get("user").asString());
        assertEquals(dict.hash(), n.get("hash").asString());
        assertEquals(1, n.get("attributes").get("a").asInt());
        assertEquals("e", n.get("attributes").get("c").get("d").asString());
        assertEquals(5, n.get("extras").get("n").asInt());
        assertEquals(0, n.get("links").get("incoming").asInt());
        assertEquals(1, n.get("links").get("outgoing").asInt());
        assertTrue(n.get("computer").isNull());

        JsonNode f = reader().get("/api/v1/nodes/" + folder.uuid()).json();
        assertEquals(3, f.get("files").get("count").asInt());
        assertEquals(List.of("a.txt", "sub"), strings(f.get("files").get("top")));

        JsonNode c = reader().get("/api/v1/nodes/" + calc.uuid()).json();
        assertEquals(2, c.get("links").get("incoming").asInt());
        assertEquals(1, c.get("links").get("outgoing").asInt());
        assertEquals("arithmetic.add_function", c.get("process_type").asString());
    }

    static List<String> strings(JsonNode array) {
        return array.valueStream().map(JsonNode::asString).toList();
    }

    @Test
    void attributesAndExtrasCanBeCutToTheKeysAskedFor() {
        JsonNode n = reader().get("/api/v1/nodes/" + dict.uuid() + "?attributes=a,c&extras=")
                .json();
        assertEquals(Set.of("a", "c"), Set.copyOf(n.get("attributes").propertyNames()));
        assertEquals(0, n.get("extras").size());
    }

    @Test
    void aUniquePrefixNamesANodeAndAnUnknownOneIsNotFound() {
        String prefix = dict.uuid().toString().substring(0, 13);
        Api.Response byPrefix = reader().get("/api/v1/nodes/" + prefix);
        assertEquals(200, byPrefix.status(), byPrefix.toString());
        assertEquals(dict.uuid().toString(), byPrefix.json().get("uuid").asString());
        Api.Response unknown = reader().get("/api/v1/nodes/00000000-0000-7000-8000-000000000000");
        assertEquals(404, unknown.status(), unknown.toString());
        assertEquals(
                "no node has the uuid 00000000-0000-7000-8000-000000000000",
                unknown.json().get("detail").asString());
        Api.Response malformed = reader().get("/api/v1/nodes/xyz!");
        assertEquals(400, malformed.status(), malformed.toString());
    }

    /**
     * A plain read by uuid is served ahead of the dispatcher ({@link OneNodeReads}): the same answer, byte
     * for byte and header for header, as the dispatcher gives a read by prefix; a token without a role is
     * still refused, and the request is still timed under the controller's pattern.
     */
    @Test
    void aReadByUuidAnswersAsTheControllerDoes() throws InterruptedException {
        Api.Response fast = reader().get("/api/v1/nodes/" + calc.uuid());
        Api.Response dispatched =
                reader().get("/api/v1/nodes/" + calc.uuid().toString().substring(0, 30));
        assertEquals(200, fast.status(), fast.toString());
        assertEquals(dispatched.body(), fast.body());
        for (String header : List.of("Content-Type", "Cache-Control", "X-Content-Type-Options", "Vary")) {
            assertEquals(
                    dispatched.headers().get(header.toLowerCase()),
                    fast.headers().get(header.toLowerCase()),
                    header);
        }
        Api.Response anonymous = api(null).get("/api/v1/nodes/" + calc.uuid());
        assertEquals(401, anonymous.status(), anonymous.toString());
        Api.Response xml = reader().send(reader().request("/api/v1/nodes/" + calc.uuid())
                .header("Accept", "application/xml")
                .GET());
        assertEquals(406, xml.status(), "a read for another type goes to the dispatcher: " + xml);
        double before = timedReads();
        assertEquals(200, reader().get("/api/v1/nodes/" + calc.uuid()).status());
        // the request's timer stops after its answer went out: wait a moment for it
        double after = timedReads();
        for (int i = 0; i < 40 && after < before + 1; i++) {
            Thread.sleep(50);
            after = timedReads();
        }
        assertEquals(before + 1, after, "a read served ahead of the dispatcher is timed under its pattern");
    }

    private double timedReads() {
        return admin().get("/actuator/metrics/http.server.requests?tag="
                        + URLEncoder.encode("uri:/api/v1/nodes/" + NodesController.REF_SEGMENT, StandardCharsets.UTF_8)
                        + "&tag=status:200")
                .json()
                .get("measurements")
                .get(0)
                .get("value")
                .asDouble();
    }

    Node reload() {
        return engine.graph().load(dict.id());
    }

    @Test
    void patchChangesLabelDescriptionAndMergesExtrasNullRemovingOne() {
        IntData n = engine.graph().store(new IntData(7));
        Api.Response first = admin().patch(
                        "/api/v1/nodes/" + n.uuid(),
                        "{\"label\": \"seven\", \"description\": \"prime\", \"extras\": {\"a\": 1, \"b\": [true]}}");
        assertEquals(200, first.status(), first.toString());
        assertEquals("seven", first.json().get("label").asString());
        Api.Response second =
                admin().patch("/api/v1/nodes/" + n.uuid(), "{\"extras\": {\"a\": null, \"c\": {\"d\": 2.5}}}");
        assertEquals(200, second.status(), second.toString());
        Node stored = engine.graph().load(n.id());
        assertEquals("seven", stored.label());
        assertEquals("prime", stored.description());
        assertEquals(Map.of("b", List.of(true), "c", Map.of("d", 2.5)), stored.extras());
        assertTrue(!stored.mtime().isBefore(stored.ctime()));
        assertEquals(7L, stored.attributes().get("value"));
    }

    @Test
    void aNodeIsNamedByItsPkWithThePkPrefix() {
        IntData n = engine.graph().store(new IntData(9));
        Api.Response byPk = admin().get("/api/v1/nodes/pk:" + n.id());
        assertEquals(200, byPk.status(), byPk.toString());
        assertEquals(n.uuid().toString(), byPk.json().get("uuid").asString());
        assertEquals(n.id(), byPk.json().get("pk").asLong());

        Api.Response none = admin().get("/api/v1/nodes/pk:" + (n.id() + 1_000_000));
        assertEquals(404, none.status(), none.toString());
        assertTrue(
                none.json().get("detail").asString().contains("no node has the PK " + (n.id() + 1_000_000)),
                none.toString());
        Api.Response bad = admin().get("/api/v1/nodes/pk:nine");
        assertEquals(400, bad.status(), bad.toString());
        assertTrue(bad.json().get("detail").asString().contains("nor a PK (pk:42)"), bad.toString());
    }

    @Test
    void aPostThatSaysItStandsForAPatchIsOneAndNothingElse() {
        IntData n = engine.graph().store(new IntData(8));
        Api.Response patched = admin().send(admin().request("/api/v1/nodes/" + n.uuid())
                .header("Content-Type", "application/json")
                .header("X-HTTP-Method-Override", "PATCH")
                .POST(HttpRequest.BodyPublishers.ofString("{\"label\": \"eight\"}")));
        assertEquals(200, patched.status(), patched.toString());
        assertEquals("eight", engine.graph().load(n.id()).label());

        Api.Response refused = reader().send(reader().request("/api/v1/nodes/" + n.uuid())
                .header("Content-Type", "application/json")
                .header("X-HTTP-Method-Override", "PATCH")
                .POST(HttpRequest.BodyPublishers.ofString("{\"label\": \"ate\"}")));
        assertEquals(403, refused.status(), "a read token may not patch, however the PATCH comes: " + refused);

        Api.Response notADelete = admin().send(admin().request("/api/v1/nodes/" + n.uuid())
                .header("X-HTTP-Method-Override", "DELETE")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertEquals(405, notADelete.status(), "only PATCH may be asked for: " + notADelete);
        assertEquals("eight", engine.graph().load(n.id()).label(), "the node is still there, unchanged");
    }

    void assertPatchRefused(int status, String body, String inDetail) {
        Node before = reload();
        Api.Response r = admin().patch("/api/v1/nodes/" + dict.uuid(), body);
        assertEquals(status, r.status(), r.toString());
        assertTrue(r.json().get("detail").asString().contains(inDetail), r.toString());
        Node after = reload();
        assertEquals(before.label(), after.label(), "nothing changed");
        assertEquals(before.description(), after.description());
        assertEquals(before.extras(), after.extras());
        assertEquals(before.mtime(), after.mtime());
    }

    @Test
    void aBadPatchChangesNothingAndSaysWhatWasWrong() {
        assertPatchRefused(
                409, "{\"label\": \"new\", \"attributes\": {\"a\": 2}}", "attributes of a stored node never");
        assertPatchRefused(400, "{\"label\": \"new\", \"colour\": 1}", "unknown field 'colour'");
        assertPatchRefused(400, "{\"label\": 3}", "field 'label': expected a string, got a number");
        assertPatchRefused(400, "{\"label\": null}", "(\"\" clears it)");
        assertPatchRefused(400, "{\"label\": \"new\", \"extras\": {\"a.b\": 1}}", "a.b");
        assertPatchRefused(400, "{\"extras\": [1]}", "field 'extras': expected an object");
        assertPatchRefused(400, "{\"label\": ", "the body: not valid JSON");
        assertPatchRefused(400, "[]", "not a JSON object");
    }

    @Test
    void readingTakesAReadTokenAndChangingASubmitToken() {
        Api.Response r = reader().patch("/api/v1/nodes/" + dict.uuid(), "{\"label\": \"x\"}");
        assertEquals(403, r.status(), r.toString());
        Api.Response unknown = api(token(Role.SUBMIT)).patch("/api/v1/nodes/0190ffff", "{\"label\": \"x\"}");
        assertEquals(404, unknown.status(), unknown.toString());
    }

    @Test
    void theApiDocumentDescribesEveryEndpointOfNodesDataAndQueries() {
        Api.Response r = api(null).get("/v3/api-docs");
        assertEquals(200, r.status(), r.toString());
        JsonNode paths = r.json().get("paths");
        for (String path : List.of(
                "/api/v1/nodes",
                "/api/v1/nodes/{ref}",
                "/api/v1/nodes/{ref}/links/incoming",
                "/api/v1/nodes/{ref}/links/outgoing",
                "/api/v1/nodes/{ref}/ancestors",
                "/api/v1/nodes/{ref}/descendants",
                "/api/v1/nodes/{ref}/files",
                "/api/v1/nodes/{ref}/archive",
                "/api/v1/nodes/{ref}/comments",
                "/api/v1/nodes/{ref}/comments/{comment}",
                "/api/v1/nodes/files",
                "/api/v1/query",
                "/api/v1/query/stream",
                "/api/v1/query/columns")) {
            assertTrue(paths.has(path), path + " is not in " + paths.propertyNames());
            paths.get(path).properties().forEach(op -> {
                if (op.getValue().has("summary")) {
                    assertTrue(!op.getValue().get("summary").asString().isBlank(), path);
                }
            });
        }
        JsonNode list = paths.get("/api/v1/nodes").get("get");
        assertTrue(list.get("parameters").toString().contains("\"filter\""), list.toString());
        assertTrue(
                paths.propertyNames().stream().anyMatch(p -> p.startsWith("/api/v1/nodes/{ref}/files/{")),
                "the download is described: " + paths.propertyNames());
    }
}
