package dev.cairn.api.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistrar;

import dev.cairn.api.security.Role;
import dev.cairn.api.testing.Api;
import dev.cairn.api.testing.ApiServices;
import dev.cairn.api.testing.ApiTest;
import dev.cairn.engine.metrics.StepTiming;
import dev.cairn.engine.process.Inputs;
import dev.cairn.examples.Arithmetic;
import dev.cairn.storage.errors.UnavailableException;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.testing.TcpProxy;
import dev.cairn.storage.testing.TestDatabase;

/**
 * PostgreSQL going away and coming back, without touching the shared server: the server under test
 * reaches its database through a {@link TcpProxy} that the test cuts (every connection closed, new
 * ones refused) and restores. Meanwhile readiness says so, a request that needs the database is
 * answered 503 within the connect timeout, a launch stores nothing, and a step that was running runs
 * again once the database is back and commits once; afterwards all works again without a restart.
 */
@Import(DatabaseOutageIT.ThroughTheProxy.class)
class DatabaseOutageIT extends ApiTest {

    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    private static final Pattern URL = Pattern.compile("jdbc:postgresql://([^/:?]+)(?::(\\d+))?(/.*)");

    static TcpProxy proxy;

    @Autowired
    DatabaseHealthIndicator database;

    @BeforeAll
    static void proxyAndPlugin() throws Exception {
        Matcher url = URL.matcher(ApiServices.db().jdbcUrl());
        if (!url.matches()) {
            throw new IllegalStateException(
                    "not a JDBC URL with a host: " + ApiServices.db().jdbcUrl());
        }
        proxy = new TcpProxy(url.group(1), url.group(2) == null ? 5432 : Integer.parseInt(url.group(2)));
        PluginJar.write(dataDir.resolve("plugins"));
    }

    @AfterAll
    static void restore() throws Exception {
        proxy.restore(); // for the server's own stop, which the test's end brings
    }

    /**
     * The database through the proxy. A registrar bean, not a {@code DynamicPropertySource}: those of a
     * class run before those of its superclass, whose database URL would win; registrars run after.
     */
    @TestConfiguration(proxyBeanMethods = false)
    static class ThroughTheProxy {
        @Bean
        DynamicPropertyRegistrar databaseThroughTheProxy() {
            return registry -> {
                registry.add("cairn.database.url", () -> {
                    Matcher url = URL.matcher(ApiServices.db().jdbcUrl());
                    url.matches();
                    return "jdbc:postgresql://127.0.0.1:" + proxy.port() + url.group(3);
                });
                registry.add("cairn.database.connect-timeout", () -> CONNECT_TIMEOUT.toMillis() + "ms");
            };
        }
    }

    @Test
    void whileTheDatabaseIsAwayReadinessIsDownRequestsGet503AndALaunchStoresNothing() throws Exception {
        Api anonymous = api(null);
        Api reader = api(token(Role.READ));
        String unseen = token(Role.READ); // never shown yet: checking it needs the database
        Readiness.await(anonymous, 200, Duration.ofSeconds(10));
        long nodes = Steps.count(db(), "SELECT count(*) FROM node");

        proxy.cut();
        try {
            Api.Response down = Readiness.await(anonymous, 503, Duration.ofSeconds(15));
            assertEquals("DOWN", down.json().get("status").asString(), down.toString());
            Health health = database.health();
            assertEquals(Status.DOWN, health.getStatus(), health.toString());
            assertEquals(200, anonymous.get("/actuator/health/liveness").status(), "alive all the same");

            long start = System.nanoTime();
            Api.Response refused = api(unseen).get("/api/v1/nodes");
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertEquals(503, refused.status(), refused.toString());
            assertEquals(
                    "urn:cairn:problem:unavailable", refused.json().get("type").asString());
            assertEquals("5", refused.header("Retry-After"));
            assertTrue(refused.json().get("detail").asString().startsWith("checking a token: "), refused.toString());
            assertTrue(millis < CONNECT_TIMEOUT.toMillis() + 3000, "answered in " + millis + " ms");
            System.out.println("DatabaseOutageIT: a request that needs the database was answered 503 in " + millis
                    + " ms (connect timeout " + CONNECT_TIMEOUT.toMillis() + " ms)");

            assertThrows(UnavailableException.class, () -> engine.launcher().submit(Arithmetic.ADD, add(1, 2)));
        } finally {
            proxy.restore();
        }
        long start = System.nanoTime();
        Api.Response up = Readiness.await(anonymous, 200, Duration.ofSeconds(30));
        System.out.println("DatabaseOutageIT: ready again " + (System.nanoTime() - start) / 1_000_000
                + " ms after the database came back");
        assertEquals("UP", up.json().get("status").asString());
        Api.Response details = reader.get("/actuator/health/readiness");
        assertEquals(
                "UP",
                details.json().get("components").get("database").get("status").asString(),
                details.toString());
        assertEquals(nodes, Steps.count(db(), "SELECT count(*) FROM node"), "the refused launch stored nothing");
        Api.Response passed = api(unseen).get("/api/v1/nodes");
        assertEquals(200, passed.status(), "the token is checked again: " + passed);
    }

    @Test
    void aStepCutOffFromTheDatabaseRunsAgainOnceItIsBackAndCommitsOnce() throws Exception {
        List<StepTiming> heard = new CopyOnWriteArrayList<>();
        engine.metrics().addStepListener(heard::add);
        ProcessNode slow = engine.launcher().submit(SlowSteps.SLEEP, Inputs.of(SlowSteps.MILLIS, new IntData(1500)));
        Steps.awaitRunning(db(), slow.id(), Duration.ofSeconds(30));
        proxy.cut();
        try {
            Thread.sleep(3000); // the step ends its sleep, and cannot commit
            assertEquals("created", Steps.state(db(), slow.id()), "nothing of the step committed");
        } finally {
            proxy.restore();
        }
        Steps.awaitState(db(), slow.id(), "finished", Duration.ofSeconds(60));
        assertEquals(
                1,
                Steps.count(db(), "SELECT count(*) FROM link WHERE input_id = ? AND label = 'slept'", slow.id()),
                "one output: the step committed once");
        assertEquals(
                1,
                Steps.count(db(), "SELECT count(*) FROM process_event WHERE process_id = ?", slow.id()),
                "one change of state, created to finished");
        List<StepTiming> steps =
                heard.stream().filter(t -> t.processId() == slow.id()).toList();
        assertEquals(1, steps.size(), steps.toString());
        assertEquals(StepTiming.Outcome.COMMITTED, steps.getFirst().outcome());
        assertTrue(
                steps.getFirst().took().toMillis() >= 3000,
                "the task was held, unacknowledged, through the outage: " + steps.getFirst());
    }

    private static Inputs add(long x, long y) {
        return Inputs.of(Arithmetic.X, new IntData(x), Arithmetic.Y, new IntData(y));
    }

    private static TestDatabase db() {
        return ApiServices.db();
    }
}
