package dev.cairn.storage.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class RabbitServerTest {

    @Test
    void managementApiDefaultsToPort15672OfTheAmqpHostWithTheSameUser() {
        var server = RabbitServer.parse("amqp://cairn:s%40cret@mq.example:5672/", null);

        assertEquals("http://mq.example:15672", server.managementBase().toString());
        assertEquals("cairn", server.managementUser());
        assertEquals("s@cret", server.managementPassword());
        assertEquals("s@cret", server.password());
    }

    @Test
    void explicitManagementUriWinsAndLosesItsTrailingSlash() {
        var server = RabbitServer.parse("amqp://a:b@mq:5672/", "https://admin:pw@proxy.example/rabbitmq/");

        assertEquals("https://proxy.example/rabbitmq", server.managementBase().toString());
        assertEquals("admin", server.managementUser());
        assertEquals("a", server.user());
    }

    @Test
    void uriWithoutCredentialsMeansGuestAsInTheJavaClient() {
        var server = RabbitServer.parse("amqp://127.0.0.1", "");

        assertEquals("guest", server.user());
        assertEquals("guest", server.managementPassword());
    }

    @Test
    void containerCredentialsAreEncoded() {
        var server = RabbitServer.of("localhost", 32768, 32769, "user", "p@ss word");

        assertEquals("p@ss word", server.password());
        assertEquals("http://localhost:32769", server.managementBase().toString());
    }

    @Test
    void otherSchemesAreRefusedWithoutShowingThePassword() {
        var e = assertThrows(IllegalArgumentException.class, () -> RabbitServer.parse("http://u:secret@h:5672/", null));
        assertFalse(e.getMessage().contains("secret"), e.getMessage());
    }
}
