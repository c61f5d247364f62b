package dev.cairn.api.nodes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.comments.CommentStore;
import dev.cairn.storage.graph.users.UserStore;

/** Comments on a node: written as the token's user, listed oldest first, changed only by their author. */
class CommentsIT extends ApiTest {

    Api as(String email, Role role) {
        UserStore users = new UserStore(engine.database());
        long id = users.findByEmail(email)
                .orElseGet(() -> users.create(email, "", "", ""))
                .id();
        return api(tokens.create(id, email, EnumSet.of(role), null).secret());
    }

    @Test
    void commentsAreTheirAuthorsToChange() {
        IntData node = engine.graph().store(new IntData(1));
        String path = "/api/v1/nodes/" + node.uuid() + "/comments";
        Api alice = as("alice@example.org", Role.SUBMIT);
        Api bob = as("bob@example.org", Role.SUBMIT);
        Api.Response first = alice.post(path, "{\"content\": \"looks right\"}");
        assertEquals(201, first.status(), first.toString());
        String uuid = first.json().get("uuid").asString();
        assertEquals(path + "/" + uuid, first.header("Location"));
        assertEquals("alice@example.org", first.json().get("user").asString());
        assertEquals(201, bob.post(path, "{\"content\": \"check k-points\"}").status());

        JsonNode page =
                as("carol@example.org", Role.READ).get(path + "?limit=1").json();
        assertEquals(1, page.get("items").size());
        assertEquals("looks right", page.get("items").get(0).get("content").asString());
        JsonNode rest =
                alice.get(path + "?cursor=" + page.get("next").asString()).json();
        assertEquals("bob@example.org", rest.get("items").get(0).get("user").asString());
        assertTrue(rest.get("next") == null);

        Api.Response notYours = bob.put(path + "/" + uuid, "{\"content\": \"wrong\"}");
        assertEquals(403, notYours.status(), notYours.toString());
        assertTrue(notYours.json().get("detail").asString().contains("is alice@example.org's"), notYours.toString());
        assertEquals(403, bob.delete(path + "/" + uuid).status());
        Api.Response edited = alice.put(path + "/" + uuid, "{\"content\": \"looks right now\"}");
        assertEquals(200, edited.status(), edited.toString());
        assertEquals("looks right now", edited.json().get("content").asString());
        assertEquals(204, admin().delete(path + "/" + uuid).status(), "an admin may delete any comment");
        List<String> left = new CommentStore(engine.database())
                .forNode(node.id()).stream().map(c -> c.content()).toList();
        assertEquals(List.of("check k-points"), left);
    }

    @Test
    void badCommentsAreRefused() {
        IntData node = engine.graph().store(new IntData(2));
        String path = "/api/v1/nodes/" + node.uuid() + "/comments";
        Api.Response empty = admin().post(path, "{\"content\": \"  \"}");
        assertEquals(400, empty.status(), empty.toString());
        assertTrue(empty.json().get("detail").asString().contains("'content' is required"));
        Api.Response unknownField = admin().post(path, "{\"content\": \"x\", \"mood\": \"happy\"}");
        assertEquals(400, unknownField.status(), unknownField.toString());
        assertTrue(
                unknownField.json().get("detail").asString().contains("unknown field 'mood'"), unknownField.toString());
        Api.Response noNode =
                admin().post("/api/v1/nodes/00000000-0000-7000-8000-000000000000/comments", "{\"content\": \"x\"}");
        assertEquals(404, noNode.status(), noNode.toString());
        Api.Response noComment = admin().put(path + "/00000000-0000-7000-8000-000000000000", "{\"content\": \"x\"}");
        assertEquals(404, noComment.status(), noComment.toString());
        Api.Response readOnly = as("dave@example.org", Role.READ).post(path, "{\"content\": \"x\"}");
        assertEquals(403, readOnly.status(), readOnly.toString());
        assertEquals(0, new CommentStore(engine.database()).forNode(node.id()).size());
    }
}
