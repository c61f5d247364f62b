package dev.cairn.e2e;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;

import com.rabbitmq.client.Channel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.e2e.CairnServerProcess.Signal;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * The server jar against an external PostgreSQL and RabbitMQ (a database and a virtual host of this
 * class's own): with no roles named it is both the API and a worker, and SIGTERM stops it the
 * orderly way: the worker stops and leaves the task queue, the web server drains, and nothing fails
 * on the way down.
 */
class ServerProcessIT {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    Path dataDir;

    @Test
    void startsWithRolesApiAndWorkerAndStopsGracefullyOnSigterm() throws Exception {
        try (CairnServerProcess server = CairnServerProcess.builder("api-worker", dataDir)
                .database(db)
                .broker(broker)
                .start()
                .awaitReady()) {
            JsonNode info = JSON.readTree(server.get("/api/v1/server", null).body());
            assertAll(
                    () -> assertEquals("[\"api\",\"worker\"]", info.get("roles").toString()),
                    () -> assertEquals(
                            System.getProperty("cairn.version"),
                            info.get("version").asString(),
                            "the jar's manifest names its version"),
                    () -> assertFalse(info.get("embeddedDatabase").asBoolean()),
                    () -> assertFalse(info.get("embeddedBroker").asBoolean()));
            assertEquals(401, server.get("/actuator/metrics", null).statusCode());
            assertEquals(200, server.get("/actuator/metrics").statusCode(), "the admin token it wrote works");
            assertEquals(1, consumersOfTaskQueue(), "its worker takes tasks");
            assertTrue(sessionsOnTheDatabase() > 0, "it holds connections to " + db.name());

            int exit = server.stop(Signal.TERM, Duration.ofMinutes(1));

            assertEquals(143, exit, "a JVM ended by SIGTERM exits with 128 + 15" + server.logTail());
            String log = server.output();
            assertAll(
                    () -> assertTrue(log.contains("worker role stopped"), "the worker stopped" + server.logTail()),
                    () -> assertTrue(log.contains("Graceful shutdown complete"), "the web server drained"),
                    () -> assertFalse(log.contains(" ERROR "), "nothing failed while stopping" + server.logTail()));
            assertEquals(0, consumersOfTaskQueue(), "nothing takes tasks any more");
        }
    }

    private static int consumersOfTaskQueue() throws Exception {
        try (var connection = broker.newConnection();
                Channel channel = connection.createChannel()) {
            return channel.queueDeclarePassive("cairn.tasks").getConsumerCount();
        }
    }

    /** Sessions on the test database but this one: the server's. */
    private static int sessionsOnTheDatabase() throws Exception {
        try (Connection c = db.connect();
                PreparedStatement s = c.prepareStatement(
                        "SELECT count(*) FROM pg_stat_activity WHERE datname = ? AND pid <> pg_backend_pid()")) {
            s.setString(1, db.name());
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
