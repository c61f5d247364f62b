package dev.cairn.api.tokens;

import static dev.cairn.api.testing.Refusals.assertRefused;
import static dev.cairn.api.testing.Refusals.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.users.UserStore;

/**
 * Tokens through the API: made for the caller or another user with the secret shown once, which
 * then works with its roles; listed and shown without secrets; revoked, after which it is refused;
 * bad input refused with its reason and no token stored.
 */
class TokensIT extends ApiTest {

    @Test
    void aTokenIsMadeUsedListedWithoutItsSecretAndRevoked() throws Exception {
        new UserStore(engine.database()).create("erin@example.org", "Erin", "", "");
        Api.Response made = admin().post(
                        "/api/v1/tokens",
                        "{\"user\": \"erin@example.org\", \"name\": \"laptop\", \"roles\": [\"read\"],"
                                + " \"expires\": \"" + OffsetDateTime.now().plusDays(30) + "\"}");
        assertEquals(201, made.status(), made.toString());
        String secret = made.json().get("secret").asString();
        JsonNode token = made.json().get("token");
        String uuid = token.get("uuid").asString();
        assertEquals("/api/v1/tokens/" + uuid, made.header("Location"));
        assertEquals("erin@example.org", token.get("user").asString());
        assertEquals(List.of("read"), strings(token.get("roles")));
        assertTrue(token.get("valid").asBoolean());
        assertTrue(secret.startsWith("cairn_"), secret);

        Api erin = api(secret);
        assertEquals(200, erin.get("/api/v1/statistics").status());
        assertEquals(403, erin.post("/api/v1/groups", "{\"label\": \"erin's\"}").status());

        Api.Response listed = admin().get("/api/v1/tokens?user=erin@example.org");
        assertEquals(200, listed.status(), listed.toString());
        assertEquals(1, listed.json().get("items").size());
        assertFalse(listed.body().contains(secret));
        assertFalse(admin().get("/api/v1/tokens").body().contains(secret));
        Api.Response shown = admin().get("/api/v1/tokens/" + uuid);
        assertEquals("laptop", shown.json().get("name").asString());
        assertFalse(shown.body().contains(secret));

        Api.Response revoked = admin().post("/api/v1/tokens/" + uuid + "/revoke", "");
        assertEquals(200, revoked.status(), revoked.toString());
        assertFalse(revoked.json().get("valid").asBoolean());
        assertFalse(revoked.json().get("revoked").isNull());
        // servers remember a token for a few seconds
        long deadline = System.nanoTime() + 15_000_000_000L;
        Api.Response refused = erin.get("/api/v1/statistics");
        while (refused.status() == 200 && System.nanoTime() < deadline) {
            Thread.sleep(250);
            refused = erin.get("/api/v1/statistics");
        }
        assertRefused(refused, 401, "the token was revoked");
        assertEquals(200, admin().post("/api/v1/tokens/" + uuid + "/revoke", "").status());
        Api.Response kept = admin().get("/api/v1/tokens/" + uuid);
        assertEquals(200, kept.status(), "a revoked token stays on record");
        assertFalse(kept.json().get("revoked").isNull());
        assertEquals(405, admin().delete("/api/v1/tokens/" + uuid).status(), "a token is revoked, not deleted");
    }

    @Test
    void aTokenWithoutAUserActsAsTheCaller() {
        Api.Response made = admin().post("/api/v1/tokens", "{\"name\": \"ci\", \"roles\": [\"submit\", \"read\"]}");
        assertEquals(201, made.status(), made.toString());
        String me =
                new UserStore(engine.database()).get(engine.graph().userId()).email();
        assertEquals(me, made.json().get("token").get("user").asString());
        assertEquals(List.of("read", "submit"), strings(made.json().get("token").get("roles")));
        assertTrue(made.json().get("token").get("expires").isNull());
    }

    @Test
    void badInputIsRefusedWithItsReasonAndNoTokenIsStored() {
        Api submitter = api(token(Role.SUBMIT));
        long tokens = count(engine, "SELECT count(*) FROM api_token");
        assertRefused(
                admin().post("/api/v1/tokens", "{\"name\": \"x\", \"roles\": [\"root\"]}"),
                400,
                "unknown role 'root'; the roles are [read, submit, admin]");
        assertRefused(admin().post("/api/v1/tokens", "{\"name\": \"x\", \"roles\": []}"), 400, "'roles'");
        assertRefused(admin().post("/api/v1/tokens", "{\"name\": \"x\"}"), 400, "'roles'");
        assertRefused(admin().post("/api/v1/tokens", "{\"roles\": [\"read\"]}"), 400, "a token needs a name");
        assertRefused(
                admin().post(
                                "/api/v1/tokens",
                                "{\"name\": \"x\", \"roles\": [\"read\"], \"expires\": \"2001-01-01T00:00:00Z\"}"),
                400,
                "a token's expiry must be in the future");
        assertRefused(
                admin().post("/api/v1/tokens", "{\"name\": \"x\", \"roles\": [\"read\"], \"expires\": \"tomorrow\"}"),
                400,
                "field 'expires'");
        assertRefused(
                admin().post(
                                "/api/v1/tokens",
                                "{\"user\": \"nobody@example.org\", \"name\": \"x\", \"roles\": [\"read\"]}"),
                400,
                "field 'user': no user has the email 'nobody@example.org'");
        assertRefused(
                admin().post("/api/v1/tokens", "{\"name\": \"x\", \"roles\": [\"read\"], \"secret\": \"mine\"}"),
                400,
                "unknown field 'secret'");
        assertRefused(admin().post("/api/v1/tokens", "{\"name\": \"x\", \"roles\": \"read\"}"), 400, "field 'roles'");
        assertRefused(submitter.post("/api/v1/tokens", "{\"name\": \"x\", \"roles\": [\"admin\"]}"), 403);
        assertEquals(tokens, count(engine, "SELECT count(*) FROM api_token"));

        UUID unknown = UUID.randomUUID();
        assertRefused(admin().get("/api/v1/tokens/" + unknown), 404, "no token has uuid " + unknown);
        assertRefused(admin().post("/api/v1/tokens/" + unknown + "/revoke", ""), 404, "no token with uuid " + unknown);
        assertRefused(admin().post("/api/v1/tokens/not-a-uuid/revoke", ""), 400, "'not-a-uuid' is not a uuid");
        assertRefused(admin().get("/api/v1/tokens?user=nobody@example.org"), 400, "no user has the email");
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asString()));
        return out;
    }
}
