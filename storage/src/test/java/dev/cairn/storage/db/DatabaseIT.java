package dev.cairn.storage.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

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
}
