package dev.cairn.engine.internal.broker;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.UUID;

import com.rabbitmq.client.Channel;
import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.testing.RabbitServer;
import dev.cairn.storage.testing.TestServices;

/** What an AMQP URI means to the engine. */
class BrokerConnectionIT {

    @Test
    void aUriEndingInASlashMeansTheDefaultVirtualHost() throws Exception {
        RabbitServer server = TestServices.fromEnvironment().rabbitmq();
        var amqp = server.amqp();
        String uri = amqp.getScheme() + "://" + amqp.getRawUserInfo() + "@" + amqp.getHost() + ":"
                + (amqp.getPort() < 0 ? 5672 : amqp.getPort()) + "/";
        String prefix = "cairn-it-" + UUID.randomUUID();
        try (BrokerConnection connection = BrokerConnection.open(uri, prefix, "vhost-test")) {
            assertTrue(connection.isOpen());
            Channel ch = connection.newChannel();
            try {
                ch.queueDeclarePassive(connection.topology().taskQueue());
            } finally {
                ch.queueDelete(connection.topology().taskQueue());
                ch.exchangeDelete(connection.topology().events());
                ch.close();
            }
        }
    }

    @Test
    void aMalformedUriIsRefusedWithoutItsPassword() {
        var e = assertThrows(
                InvalidInputException.class, () -> BrokerConnection.open("http://user:secret@host/", "cairn", "bad"));
        assertTrue(e.getMessage().contains("user:***@host"), e.getMessage());
    }
}
