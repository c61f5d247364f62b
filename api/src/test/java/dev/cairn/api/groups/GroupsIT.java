package dev.cairn.api.groups;

import static dev.cairn.api.testing.Refusals.assertRefused;
import static dev.cairn.api.testing.Refusals.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.users.UserStore;

/**
 * Groups through the API: made as the caller, listed and shown with node counts, changed, filled
 * and emptied by uuid (all of a request or none of it), read a page at a time, deleted with their
 * nodes left; each kind of bad input refused with its reason and nothing changed.
 */
class GroupsIT extends ApiTest {

    private static final String MEMBERS = "SELECT count(*) FROM group_member";

    private List<String> nodes(int n) {
        List<String> uuids = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            uuids.add(engine.graph().store(new IntData(i)).uuid().toString());
        }
        return uuids;
    }

    private static String uuids(List<String> uuids) {
        return uuids.stream().map(u -> "\"" + u + "\"").toList().toString();
    }

    @Test
    void aGroupIsMadeAsTheCallerChangedAndDeletedWithItsNodesLeft() {
        long carol = new UserStore(engine.database())
                .create("carol@example.org", "Carol", "", "")
                .id();
        Api asCarol =
                api(tokens.create(carol, "carol", EnumSet.of(Role.SUBMIT), null).secret());
        Api.Response made = asCarol.post(
                "/api/v1/groups", "{\"label\": \"relaxations\", \"description\": \"PBE\", \"extras\": {\"n\": 1}}");
        assertEquals(201, made.status(), made.toString());
        JsonNode group = made.json();
        String uuid = group.get("uuid").asString();
        assertEquals("/api/v1/groups/" + uuid, made.header("Location"));
        assertEquals("carol@example.org", group.get("user").asString());
        assertEquals("core", group.get("type").asString());
        assertEquals(1, group.get("extras").get("n").asInt());
        assertEquals(0, group.get("nodes").asLong());

        List<String> members = nodes(3);
        Api.Response added = asCarol.post("/api/v1/groups/relaxations/nodes", "{\"add\": " + uuids(members) + "}");
        assertEquals(200, added.status(), added.toString());
        assertEquals(3, added.json().get("added").asLong());
        assertEquals(3, added.json().get("nodes").asLong());

        Api.Response changed = asCarol.patch(
                "/api/v1/groups/" + uuid,
                "{\"label\": \"relaxations-pbe\", \"description\": \"PBE, converged\","
                        + " \"extras\": {\"n\": null, \"reviewed\": true}}");
        assertEquals(200, changed.status(), changed.toString());
        assertEquals("relaxations-pbe", changed.json().get("label").asString());
        assertEquals("PBE, converged", changed.json().get("description").asString());
        assertFalse(changed.json().get("extras").has("n"));
        assertTrue(changed.json().get("extras").get("reviewed").asBoolean());
        assertEquals(
                3,
                api(token(Role.READ))
                        .get("/api/v1/groups/relaxations-pbe")
                        .json()
                        .get("nodes")
                        .asLong());
        assertRefused(admin().get("/api/v1/groups/relaxations"), 404, "no group of type 'core' is labelled");

        long nodes = count(engine, "SELECT count(*) FROM node");
        assertEquals(204, asCarol.delete("/api/v1/groups/relaxations-pbe").status());
        assertEquals(404, admin().get("/api/v1/groups/" + uuid).status());
        assertEquals(nodes, count(engine, "SELECT count(*) FROM node"));
    }

    @Test
    void membersAreAddedAndRemovedTogetherAndReadAPageAtATime() {
        admin().post("/api/v1/groups", "{\"label\": \"paged\"}");
        List<String> members = nodes(5);
        admin().post("/api/v1/groups/paged/nodes", "{\"add\": " + uuids(members.subList(0, 4)) + "}");
        Api.Response both = admin().post(
                        "/api/v1/groups/paged/nodes",
                        "{\"add\": " + uuids(List.of(members.get(4), members.get(0))) + ", \"remove\": "
                                + uuids(List.of(members.get(1))) + "}");
        assertEquals(200, both.status(), both.toString());
        assertEquals(1, both.json().get("added").asLong());
        assertEquals(1, both.json().get("removed").asLong());
        assertEquals(4, both.json().get("nodes").asLong());

        List<String> read = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = admin().get("/api/v1/groups/paged/nodes?limit=3&count=true"
                            + (cursor == null ? "" : "&cursor=" + cursor))
                    .json();
            assertEquals(4, page.get("total").asLong());
            page.get("items").forEach(n -> {
                read.add(n.get("uuid").asString());
                assertEquals("data.core.int.Int.", n.get("nodeType").asString());
            });
            cursor = page.has("next") ? page.get("next").asString() : null;
        } while (cursor != null);
        assertEquals(List.of(members.get(0), members.get(2), members.get(3), members.get(4)), read);
        String other = admin().get("/api/v1/groups/paged/nodes?limit=1")
                .json()
                .get("next")
                .asString();
        admin().post("/api/v1/groups", "{\"label\": \"other\"}");
        assertRefused(admin().get("/api/v1/groups/other/nodes?cursor=" + other), 400, "a cursor continues the list");
    }

    @Test
    void groupsAreListedByTypeWithTheirCounts() {
        for (String label : List.of("list-b", "list-a", "list-c")) {
            admin().post("/api/v1/groups", "{\"label\": \"" + label + "\", \"type\": \"test.listed\"}");
        }
        admin().post("/api/v1/groups/list-a/nodes?type=test.listed", "{\"add\": " + uuids(nodes(2)) + "}");
        JsonNode first = admin().get("/api/v1/groups?type=test.listed&limit=2").json();
        assertEquals(List.of("list-a", "list-b"), labels(first));
        assertEquals(2, first.get("items").get(0).get("nodes").asLong());
        JsonNode second = admin().get("/api/v1/groups?type=test.listed&limit=2&cursor="
                        + first.get("next").asString())
                .json();
        assertEquals(List.of("list-c"), labels(second));
        assertFalse(second.has("next"));
        assertRefused(admin().get("/api/v1/groups/list-a"), 404, "no group of type 'core' is labelled 'list-a'");
    }

    @Test
    void badInputIsRefusedWithItsReasonAndNothingChanges() {
        admin().post("/api/v1/groups", "{\"label\": \"kept\"}");
        admin().post("/api/v1/groups", "{\"label\": \"taken\"}");
        List<String> members = nodes(2);
        admin().post("/api/v1/groups/kept/nodes", "{\"add\": " + uuids(members.subList(0, 1)) + "}");
        long groups = count(engine, "SELECT count(*) FROM node_group");
        long memberships = count(engine, MEMBERS);
        String unknown = UUID.randomUUID().toString();

        assertRefused(
                admin().post(
                                "/api/v1/groups/kept/nodes",
                                "{\"add\": " + uuids(List.of(members.get(1), unknown)) + ", \"remove\": "
                                        + uuids(members.subList(0, 1)) + "}"),
                400,
                "field 'add': 1 of the 2 nodes do not exist: " + unknown,
                "nothing was changed");
        assertRefused(
                admin().post("/api/v1/groups/kept/nodes", "{\"remove\": " + uuids(List.of(unknown)) + "}"),
                400,
                "field 'remove'");
        assertRefused(admin().post("/api/v1/groups/kept/nodes", "{\"add\": [\"nope\"]}"), 400, "field 'add[0]'");
        assertRefused(admin().post("/api/v1/groups/kept/nodes", "{\"ad\": []}"), 400, "unknown field 'ad'");
        assertRefused(admin().post("/api/v1/groups", "{\"label\": \"taken\"}"), 409, "a group labelled 'taken'");
        assertRefused(admin().post("/api/v1/groups", "{\"label\": \"x\", \"extras\": {\"a.b\": 1}}"), 400, "'a.b'");
        assertRefused(admin().post("/api/v1/groups", "{\"label\": {\"a\": 1}}"), 400, "field 'label'");
        assertRefused(admin().post("/api/v1/groups", "{\"description\": \"no label\"}"), 400, "field 'label'");
        assertRefused(
                admin().patch("/api/v1/groups/kept", "{\"label\": \"taken\", \"description\": \"changed\"}"),
                409,
                "a group labelled 'taken'");
        assertRefused(
                admin().patch("/api/v1/groups/kept", "{\"description\": \"changed\", \"extras\": {\"a.b\": 1}}"),
                400,
                "'a.b'");
        assertRefused(admin().patch("/api/v1/groups/kept", "{\"labl\": \"x\"}"), 400, "unknown field 'labl'");
        assertRefused(admin().get("/api/v1/groups/nowhere"), 404, "no group of type 'core' is labelled 'nowhere'");
        assertRefused(admin().post("/api/v1/groups/nowhere/nodes", "{\"add\": []}"), 404);
        assertRefused(api(token(Role.READ)).post("/api/v1/groups", "{\"label\": \"read-only\"}"), 403);

        assertEquals(groups, count(engine, "SELECT count(*) FROM node_group"));
        assertEquals(memberships, count(engine, MEMBERS));
        JsonNode kept = admin().get("/api/v1/groups/kept").json();
        assertEquals("", kept.get("description").asString());
        assertEquals(1, kept.get("nodes").asLong());
    }

    private static List<String> labels(JsonNode page) {
        List<String> labels = new ArrayList<>();
        page.get("items").forEach(g -> labels.add(g.get("label").asString()));
        return labels;
    }
}
