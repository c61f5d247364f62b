package dev.cairn.storage.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.util.PSQLException;

import dev.cairn.storage.db.entity.UserEntity;
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
