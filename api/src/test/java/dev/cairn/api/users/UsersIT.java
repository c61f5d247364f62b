package dev.cairn.api.users;

import static dev.cairn.api.testing.Refusals.assertRefused;
import static dev.cairn.api.testing.Refusals.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.storage.graph.users.UserStore;

/** Users through the API: listed with the default marked, added, renamed; bad input refused, nothing stored. */
class UsersIT extends ApiTest {

    @Test
    void usersAreAddedListedWithTheDefaultMarkedAndRenamed() {
        String byDefault =
                new UserStore(engine.database()).defaultUser().orElseThrow().email();
        Api.Response made = admin().post(
                        "/api/v1/users",
                        "{\"email\": \"dora@example.org\", \"firstName\": \"Dora\", \"institution\": \"PSI\"}");
        assertEquals(201, made.status(), made.toString());
        assertEquals("/api/v1/users/dora@example.org", made.header("Location"));
        assertFalse(made.json().get("isDefault").asBoolean());
        assertEquals("", made.json().get("lastName").asString());

        JsonNode items = admin().get("/api/v1/users").json().get("items");
        int defaults = 0;
        boolean dora = false;
        for (JsonNode u : items) {
            if (u.get("isDefault").asBoolean()) {
                defaults++;
                assertEquals(byDefault, u.get("email").asString());
            }
            dora |= u.get("email").asString().equals("dora@example.org");
        }
        assertEquals(1, defaults);
        assertTrue(dora, items.toString());
        assertTrue(admin().get("/api/v1/users/" + byDefault)
                .json()
                .get("isDefault")
                .asBoolean());

        Api.Response renamed = admin().patch("/api/v1/users/dora@example.org", "{\"lastName\": \"Explorer\"}");
        assertEquals(200, renamed.status(), renamed.toString());
        assertEquals("Dora", renamed.json().get("firstName").asString());
        assertEquals("Explorer", renamed.json().get("lastName").asString());
        assertEquals(
                "PSI",
                admin().get("/api/v1/users/dora@example.org")
                        .json()
                        .get("institution")
                        .asString());
    }

    @Test
    void badInputIsRefusedWithItsReasonAndNothingIsStored() {
        admin().post("/api/v1/users", "{\"email\": \"taken@example.org\"}");
        long users = count(engine, "SELECT count(*) FROM app_user");
        assertRefused(
                admin().post("/api/v1/users", "{\"email\": \"taken@example.org\"}"),
                409,
                "a user with email 'taken@example.org' exists already");
        assertRefused(
                admin().post("/api/v1/users", "{\"email\": \"Alice Liddell\"}"),
                400,
                "'Alice Liddell' is not an email address");
        assertRefused(admin().post("/api/v1/users", "{\"mail\": \"x@y\"}"), 400, "unknown field 'mail'");
        assertRefused(admin().post("/api/v1/users", "{\"email\": [\"x@y\"]}"), 400, "field 'email'");
        assertRefused(
                admin().patch("/api/v1/users/taken@example.org", "{\"email\": \"new@y\"}"),
                400,
                "unknown field 'email'");
        assertRefused(
                admin().get("/api/v1/users/nobody@example.org"), 404, "no user has the email 'nobody@example.org'");
        assertRefused(admin().patch("/api/v1/users/nobody@example.org", "{\"firstName\": \"N\"}"), 404);
        assertRefused(api(token(Role.SUBMIT)).get("/api/v1/users"), 403);
        assertRefused(api(token(Role.SUBMIT)).post("/api/v1/users", "{\"email\": \"sneaky@example.org\"}"), 403);
        assertEquals(users, count(engine, "SELECT count(*) FROM app_user"));
    }
}
