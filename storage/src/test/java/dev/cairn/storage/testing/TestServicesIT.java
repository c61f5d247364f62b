package dev.cairn.storage.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.GetResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * The test services against the real servers: a database and a virtual host per class,
 * usable while the class runs and gone after it. "After it" is checked by running a
 * fixture class through JUnit itself (EngineTestKit), so the real extension lifecycle is
 * what gets tested.
 */
class TestServicesIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @Test
    void databaseOfTheClassExistsWhileItsTestsRun() throws SQLException {
        assertTrue(databaseExists(db.name()), db.name());
        try (Connection c = db.connect();
                Statement s = c.createStatement();
                ResultSet r = s.executeQuery("SELECT current_database(), current_user")) {
            assertTrue(r.next());
            assertEquals(db.name(), r.getString(1));
            assertEquals(db.user(), r.getString(2));
        }
    }

    @Test
    void tableInTheDatabaseCanBeCreatedWrittenAndRead() throws SQLException {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password())) {
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE note (id int PRIMARY KEY, body text NOT NULL)");
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO note VALUES (?, ?)")) {
                insert.setInt(1, 1);
                insert.setString(2, "provenance");
                assertEquals(1, insert.executeUpdate());
            }
            try (Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT id, body FROM note")) {
                assertTrue(r.next());
                assertEquals(1, r.getInt("id"));
                assertEquals("provenance", r.getString("body"));
                assertFalse(r.next());
            }
        }
    }

    @Test
    void databaseIsDroppedAfterItsClassEvenWithAConnectionLeftOpen() throws SQLException {
        runFixture(LeavesADatabaseConnectionOpen.class);

        String name = LeavesADatabaseConnectionOpen.name;
        assertNotNull(name, "the fixture ran");
        assertTrue(LeavesADatabaseConnectionOpen.existedDuringTheTest, name);
        assertNotEquals(db.name(), name, "each class has a database of its own");
        assertFalse(databaseExists(name), name + " still exists after its class");
    }

    @Test
    void messagePublishedInTheVirtualHostIsConsumedBack() throws Exception {
        try (var connection = broker.newConnection();
                Channel channel = connection.createChannel()) {
            String queue =
                    channel.queueDeclare("roundtrip", false, false, false, null).getQueue();
            channel.basicPublish("", queue, null, "hello".getBytes(UTF_8));

            GetResponse message = pollOne(channel, queue);

            assertNotNull(message, "the message came back");
            assertEquals("hello", new String(message.getBody(), UTF_8));
        }
    }

    @Test
    void virtualHostOfTheClassExistsWhileItsTestsRun() throws IOException {
        assertTrue(managementApi().vhostExists(broker.vhost()), broker.vhost());
    }

    @Test
    void virtualHostIsDeletedAfterItsClassEvenWithAConnectionLeftOpen() throws IOException {
        runFixture(LeavesABrokerConnectionOpen.class);

        String vhost = LeavesABrokerConnectionOpen.vhost;
        assertNotNull(vhost, "the fixture ran");
        assertTrue(LeavesABrokerConnectionOpen.existedDuringTheTest, vhost);
        assertNotEquals(broker.vhost(), vhost, "each class has a virtual host of its own");
        assertFalse(managementApi().vhostExists(vhost), vhost + " still exists after its class");
    }

    // Fixtures run through EngineTestKit only: failsafe does not pick up nested classes.

    static class LeavesADatabaseConnectionOpen {
        @RegisterExtension
        static final TestDatabase db = new TestDatabase();

        static String name;
        static boolean existedDuringTheTest;

        @Test
        @SuppressWarnings("resource") // left open on purpose: the drop must close it
        void useTheDatabase() throws SQLException {
            name = db.name();
            db.connect().createStatement().execute("CREATE TABLE t (x int)");
            existedDuringTheTest = databaseExists(name);
        }
    }

    static class LeavesABrokerConnectionOpen {
        @RegisterExtension
        static final TestBroker broker = new TestBroker();

        static String vhost;
        static boolean existedDuringTheTest;

        @Test
        void useTheVirtualHost() throws Exception {
            vhost = broker.vhost();
            broker.newConnection().createChannel().queueDeclare("left-behind", true, false, false, null);
            existedDuringTheTest = managementApi().vhostExists(vhost);
        }
    }

    private static void runFixture(Class<?> fixture) {
        EngineTestKit.engine("junit-jupiter")
                .selectors(selectClass(fixture))
                .execute()
                .allEvents()
                .assertStatistics(stats -> stats.failed(0).succeeded(3)); // the class, its test, the engine
    }

    private static boolean databaseExists(String name) throws SQLException {
        PostgresServer server = TestServices.fromEnvironment().postgres();
        try (Connection admin = DriverManager.getConnection(server.adminUrl());
                PreparedStatement query =
                        admin.prepareStatement("SELECT count(*) FROM pg_database WHERE datname = ?")) {
            query.setString(1, name);
            try (ResultSet r = query.executeQuery()) {
                r.next();
                return r.getInt(1) == 1;
            }
        }
    }

    private static ManagementApi managementApi() {
        return new ManagementApi(TestServices.fromEnvironment().rabbitmq());
    }

    private static GetResponse pollOne(Channel channel, String queue) throws IOException, InterruptedException {
        for (int i = 0; i < 50; i++) {
            GetResponse response = channel.basicGet(queue, true);
            if (response != null) {
                return response;
            }
            Thread.sleep(100);
        }
        return null;
    }
}
