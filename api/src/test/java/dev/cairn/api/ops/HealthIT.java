package dev.cairn.api.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiTest;

/**
 * The probes: liveness asks nothing of the services (a database outage must not get the server
 * restarted), readiness checks PostgreSQL, the broker and the object store; both answer anyone with
 * their status and each check's (which service is down), and a token with a role with what each check found.
 */
class HealthIT extends ApiTest {

    @Test
    void livenessHoldsOnlyTheApplicationsOwnState() {
        Api.Response live = api(token(Role.READ)).get("/actuator/health/liveness");
        assertEquals(200, live.status(), live.toString());
        assertEquals("UP", live.json().get("status").asString());
        assertEquals(List.of("livenessState"), names(live.json().get("components")), live.toString());
        Api.Response anonymous = api(null).get("/actuator/health/liveness");
        assertEquals(200, anonymous.status(), anonymous.toString());
        assertEquals(List.of("livenessState"), names(anonymous.json().get("components")), anonymous.toString());
    }

    @Test
    void readinessChecksTheDatabaseTheBrokerAndTheObjectStoreAndTellsATokenWhatItFound() {
        Api.Response anonymous = api(null).get("/actuator/health/readiness");
        assertEquals(200, anonymous.status(), anonymous.toString());
        assertEquals("UP", anonymous.json().get("status").asString());
        JsonNode statuses = anonymous.json().get("components");
        assertEquals(
                List.of("broker", "database", "objectStore", "readinessState"), names(statuses), anonymous.toString());
        for (String name : names(statuses)) {
            assertEquals("UP", statuses.get(name).get("status").asString(), name);
            assertNull(statuses.get(name).get("details"), "no details without a token: " + anonymous);
        }

        Api.Response r = api(token(Role.READ)).get("/actuator/health/readiness");
        JsonNode components = r.json().get("components");
        assertEquals(List.of("broker", "database", "objectStore", "readinessState"), names(components), r.toString());
        for (String name : names(components)) {
            assertEquals("UP", components.get(name).get("status").asString(), name);
        }
        JsonNode database = components.get("database").get("details");
        assertTrue(database.get("version").asString().matches("\\d+.*"), database.toString());
        assertTrue(database.get("connections").asInt() >= 1, database.toString());
        JsonNode broker = components.get("broker").get("details");
        assertEquals("cairn.tasks", broker.get("queue").asString());
        assertEquals(1, broker.get("consumers").asInt(), "this server's worker");
        JsonNode store = components.get("objectStore").get("details");
        assertEquals(
                dataDir.resolve("objects").toAbsolutePath().toString(),
                store.get("path").asString());
        assertTrue(store.get("free").asLong() > 0, store.toString());
    }

    @Test
    void anObjectStoreFolderThatIsGoneMakesTheServerUnready() throws Exception {
        Path store = dataDir.resolve("objects");
        Path aside = dataDir.resolve("objects-aside");
        Api anonymous = api(null);
        Api reader = api(token(Role.READ));
        Files.move(store, aside);
        try {
            Api.Response down = Readiness.await(anonymous, 503, Duration.ofSeconds(10));
            assertEquals("DOWN", down.json().get("status").asString());
            JsonNode statuses = down.json().get("components");
            assertEquals("DOWN", statuses.get("objectStore").get("status").asString(), "which check failed: " + down);
            assertEquals("UP", statuses.get("database").get("status").asString(), down.toString());
            assertNull(statuses.get("objectStore").get("details"), "no details without a token: " + down);
            JsonNode objects = reader.get("/actuator/health/readiness")
                    .json()
                    .get("components")
                    .get("objectStore");
            assertEquals("DOWN", objects.get("status").asString());
            assertEquals(
                    "the folder is missing", objects.get("details").get("error").asString());
            assertEquals(200, anonymous.get("/actuator/health/liveness").status(), "alive all the same");
        } finally {
            Files.move(aside, store);
        }
        Readiness.await(anonymous, 200, Duration.ofSeconds(10));
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>(object.propertyNames());
        names.sort(null);
        return names;
    }
}
