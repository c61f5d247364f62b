package dev.cairn.storage.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PostgresServerTest {

    @Test
    void urlForReplacesOnlyTheDatabaseName() {
        var server = PostgresServer.parse(
                "jdbc:postgresql://127.0.0.1:5432/postgres?user=cairn&password=cairn&sslmode=disable");

        assertEquals(
                "jdbc:postgresql://127.0.0.1:5432/cairn_test_x?user=cairn&password=cairn&sslmode=disable",
                server.urlFor("cairn_test_x"));
        assertEquals("postgres", server.adminDatabase());
        assertEquals("cairn", server.user());
        assertEquals("cairn", server.password());
    }

    @Test
    void encodedCredentialsAreDecodedAndWrittenBackEncoded() {
        var server = PostgresServer.parse("jdbc:postgresql://db:5432/postgres?user=cairn&password=p%26ss%3Dw%20rd");

        assertEquals("p&ss=w rd", server.password());
        assertEquals(server, PostgresServer.parse(server.urlFor("postgres")));
    }

    @Test
    void missingDatabaseMeansPostgresAndSeveralHostsAreKept() {
        var server = PostgresServer.parse("jdbc:postgresql://a:5432,b:5433/?user=cairn");

        assertEquals("postgres", server.adminDatabase());
        assertEquals("", server.password());
        assertEquals("jdbc:postgresql://a:5432,b:5433/t?user=cairn", server.urlFor("t"));
    }

    @Test
    void urlWithoutUserIsRefused() {
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> PostgresServer.parse("jdbc:postgresql://127.0.0.1:5432/postgres"));
        assertTrue(e.getMessage().contains("user=cairn"), e.getMessage());
    }

    @Test
    void otherUrlsAreRefusedWithoutShowingThePassword() {
        var e = assertThrows(
                IllegalArgumentException.class, () -> PostgresServer.parse("jdbc:mysql://h/db?user=u&password=secret"));
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
    }

    @Test
    void toStringHidesThePassword() {
        var server = PostgresServer.of("h", 5432, "postgres", "u", "secret");
        assertFalse(server.toString().contains("secret"), server.toString());
    }
}
