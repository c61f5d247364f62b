package dev.cairn.api.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiServices;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.engine.events.EventFilter;
import dev.cairn.engine.process.Inputs;
import dev.cairn.examples.Arithmetic;
import dev.cairn.storage.errors.UnavailableException;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.testing.TestBroker;

/**
 * The broker going away and coming back, without touching the shared broker: the test takes the
 * server's user's permissions on the test's own virtual host and closes its connections there, so
 * the server's connection keeps trying to recover and is refused, then gives the permissions back.
 * Meanwhile readiness says so and a launch still stands once committed (its task waits in the
 * outbox); once the broker is back the connection recovers by itself and the launch runs.
 */
class BrokerOutageIT extends ApiTest {

    @Autowired
    BrokerHealthIndicator broker;

    @Test
    void whileTheBrokerIsAwayReadinessIsDownALaunchStandsAndRunsOnceItIsBack() throws Exception {
        Api anonymous = api(null);
        Api reader = api(token(Role.READ));
        TestBroker vhost = ApiServices.broker();
        RabbitManagement management = new RabbitManagement(vhost.server());
        Readiness.await(anonymous, 200, Duration.ofSeconds(10));
        Api.Response ready = reader.get("/actuator/health/readiness");
        assertEquals(
                1,
                ready.json()
                        .get("components")
                        .get("broker")
                        .get("details")
                        .get("consumers")
                        .asInt(),
                "the worker consumes: " + ready);

        assertTrue(
                !management
                        .awaitConnections(vhost.vhost(), Duration.ofSeconds(15))
                        .isEmpty(),
                "the server is connected");

        management.revoke(vhost.vhost(), vhost.server().user());
        ProcessNode launched;
        try {
            management.closeConnections(vhost.vhost());
            Api.Response down = Readiness.await(anonymous, 503, Duration.ofSeconds(15));
            assertEquals("DOWN", down.json().get("status").asString());
            Health health = broker.health();
            assertEquals(Status.DOWN, health.getStatus(), health.toString());
            assertEquals(200, anonymous.get("/actuator/health/liveness").status(), "alive all the same");
            Api.Response details = reader.get("/actuator/health/readiness");
            assertEquals(
                    "DOWN",
                    details.json().get("components").get("broker").get("status").asString(),
                    details.toString());
            assertEquals(
                    "UP",
                    details.json()
                            .get("components")
                            .get("database")
                            .get("status")
                            .asString());

            // what needs the broker now is refused as an outage, not as a fault of the server
            assertThrows(UnavailableException.class, () -> engine.subscribe(EventFilter.all(), e -> {}));
            // a launch commits, and stands: its task waits in the outbox for the broker
            launched = engine.launcher()
                    .submit(Arithmetic.ADD, Inputs.of(Arithmetic.X, new IntData(20), Arithmetic.Y, new IntData(22)));
            assertEquals("created", Steps.state(ApiServices.db(), launched.id()));
            assertEquals(
                    1,
                    Steps.count(ApiServices.db(), "SELECT count(*) FROM outbox WHERE process_id = ?", launched.id()));
        } finally {
            management.grantAll(vhost.vhost(), vhost.server().user());
        }
        long start = System.nanoTime();
        Readiness.await(anonymous, 200, Duration.ofSeconds(30));
        System.out.println("BrokerOutageIT: ready again " + (System.nanoTime() - start) / 1_000_000
                + " ms after the broker let the server in again");
        Steps.awaitState(ApiServices.db(), launched.id(), "finished", Duration.ofSeconds(60));
        Api.Response after = reader.get("/actuator/health/readiness");
        assertEquals(
                1,
                after.json()
                        .get("components")
                        .get("broker")
                        .get("details")
                        .get("consumers")
                        .asInt(),
                "the worker consumes again, on the recovered connection: " + after);
    }
}
