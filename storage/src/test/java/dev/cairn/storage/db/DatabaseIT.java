package dev.cairn.storage.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import jdk.net.ExtendedSocketOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.util.PSQLException;

import dev.cairn.storage.db.internal.KeepAliveSockets;
import dev.cairn.storage.db.internal.UserEntity;
import dev.cairn.storage.testing.TestDatabase;

class DatabaseIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @Test
    void opensMigratesAndValidatesThenOpensAgainWithoutMigrating() throws SQLException, IOException {
        long migrations;
        try (Stream<Path> files = Files.list(Path.of("src/main/resources/db/migration"))) {
            migrations = files.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql"))
                    .count();
        }
        try (Database database = Database.open(DatabaseConfig.of(db.jdbcUrl()))) {
            try (Connection c = database.connection();
                    Statement s = c.createStatement();
                    ResultSet r = s.executeQuery("SELECT count(*) FROM flyway_schema_history WHERE success")) {
                r.next();
                assertEquals(migrations, r.getInt(1));
            }
        }
        try (Database database = Database.open(DatabaseConfig.of(db.jdbcUrl()))) {
            assertEquals(0, Migrations.migrate(database.dataSource()));
        }
    }

    /**
     * PostgreSQL gives up a session whose client went silent (a worker's host lost) within the
     * timeout, by keepalives and {@code tcp_user_timeout} the session asks for at its start; and the
     * client's socket probes the server as often.
     */
    @Test
    void sessionsGiveUpASilentPeerWithinTheDeadConnectionTimeout() throws SQLException {
        DatabaseConfig config = DatabaseConfig.of(db.jdbcUrl()).withDeadConnectionTimeout(Duration.ofSeconds(20));
        try (Database database = Database.open(config);
                Connection c = database.connection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT string_agg(name || '=' || setting, ' ' ORDER BY name)"
                        + " FROM pg_settings WHERE name LIKE 'tcp_%'")) {
            rs.next();
            assertEquals(
                    "tcp_keepalives_count=3 tcp_keepalives_idle=10 tcp_keepalives_interval=3 tcp_user_timeout=20000",
                    rs.getString(1),
                    "the session's settings (over TCP: " + db.jdbcUrl().startsWith("jdbc:postgresql://") + ")");
        }
        try (Socket socket = new KeepAliveSockets("10,3,3").createSocket()) {
            assertTrue(socket.getKeepAlive());
            assertEquals(10, socket.getOption(ExtendedSocketOptions.TCP_KEEPIDLE));
            assertEquals(3, socket.getOption(ExtendedSocketOptions.TCP_KEEPINTERVAL));
            assertEquals(3, socket.getOption(ExtendedSocketOptions.TCP_KEEPCOUNT));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void sessionsPriceAPageReadOutOfOrderAsInMemoryUnlessToldToKeepTheServersCost() throws SQLException {
        String servers;
        try (Database database = Database.open(DatabaseConfig.of(db.jdbcUrl()).withRandomPageCost(null))) {
            servers = settings(database);
        }
        assertTrue(servers.startsWith("written "), servers);
        try (Database database = Database.open(DatabaseConfig.of(db.jdbcUrl()))) {
            assertEquals("written 1.1", settings(database), "the default, beside the statistics' own setting");
        }
        try (Database database = Database.open(DatabaseConfig.of(db.jdbcUrl()).withRandomPageCost(2.5))) {
            assertEquals("written 2.5", settings(database));
        }
        assertTrue(!servers.equals("written 1.1"), "this test's server must keep a cost of its own: " + servers);
    }

    private static String settings(Database database) throws SQLException {
        try (Connection c = database.connection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(
                        "SELECT current_setting('cairn.node_tally') || ' ' || current_setting('random_page_cost')")) {
            rs.next();
            return rs.getString(1);
        }
    }

    @Test
    void hibernateReadsAndWritesThroughTheValidatedMapping() {
        try (Database database = Database.open(DatabaseConfig.of(db.jdbcUrl()))) {
            String email = "h-" + UUID.randomUUID() + "@example.com";
            database.sessions().inTransaction(session -> {
                UserEntity user = new UserEntity();
                user.email = email;
                user.firstName = "Ada";
                user.lastName = "Lovelace";
                user.institution = "";
                session.persist(user);
            });
            UserEntity read = database.sessions()
                    .fromSession(session -> session.createSelectionQuery(
                                    "from UserEntity where email = :email", UserEntity.class)
                            .setParameter("email", email)
                            .getSingleResult());
            assertEquals("Ada", read.firstName);
        }
    }

    @Test
    void aNodeHashIsSixtyFourLowercaseHexDigitsOrNone() throws SQLException {
        String hex = "0123456789abcdef".repeat(4);
        List<String> wrong = List.of(
                hex.toUpperCase(),
                hex.substring(1),
                hex + "0",
                hex.substring(1) + "g",
                hex.substring(2) + "é",
                hex.substring(1) + "\n",
                "");
        try (Database database = Database.open(DatabaseConfig.of(db.jdbcUrl()));
                Connection c = database.connection()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("INSERT INTO app_user (email) VALUES ('hash-" + UUID.randomUUID() + "')");
            }
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO node (uuid, node_type, ctime, mtime,"
                    + " user_id, hash) VALUES (gen_random_uuid(), 'data.core.int.Int.', now(), now(),"
                    + " currval(pg_get_serial_sequence('app_user', 'id')), ?)")) {
                insert.setString(1, hex);
                assertEquals(1, insert.executeUpdate());
                insert.setString(1, null);
                assertEquals(1, insert.executeUpdate());
                for (String hash : wrong) {
                    Savepoint before = c.setSavepoint();
                    insert.setString(1, hash);
                    PSQLException refused = assertThrows(PSQLException.class, insert::executeUpdate, hash);
                    assertEquals(
                            "node_hash_check", refused.getServerErrorMessage().getConstraint(), hash);
                    c.rollback(before);
                }
            } finally {
                c.rollback();
            }
        }
    }
}
