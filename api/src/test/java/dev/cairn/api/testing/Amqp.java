package dev.cairn.api.testing;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import dev.cairn.storage.testing.TestBroker;

/** The AMQP URI of a test class's virtual host. */
public final class Amqp {

    private Amqp() {}

    public static String uri(TestBroker broker) {
        URI amqp = broker.server().amqp();
        int port = amqp.getPort() < 0 ? 5672 : amqp.getPort();
        return amqp.getScheme() + "://" + (amqp.getRawUserInfo() == null ? "" : amqp.getRawUserInfo() + "@")
                + amqp.getHost() + ":" + port + "/" + URLEncoder.encode(broker.vhost(), StandardCharsets.UTF_8);
    }
}
