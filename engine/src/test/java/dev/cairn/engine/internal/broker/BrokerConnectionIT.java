package dev.cairn.engine.internal.broker;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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

    /**
     * A node of a cluster whose host is cut off answers no SYN; each connection and recovery tries
     * the nodes in a shuffled order, so such a node must cost a short connect timeout, not the one
     * broker's (10 s). Here a listening socket whose accept queue is full stands for the node: the
     * kernel drops further SYNs unanswered.
     */
    @Test
    void aClusterNodeThatAnswersNothingIsGivenUpInSeconds() throws Exception {
        RabbitServer server = TestServices.fromEnvironment().rabbitmq();
        String uri = server.amqp().toString();
        String prefix = "cairn-it-" + UUID.randomUUID();
        List<Socket> queued = new ArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            InetSocketAddress address = new InetSocketAddress(silent.getInetAddress(), silent.getLocalPort());
            boolean full = false;
            for (int i = 0; i < 8 && !full; i++) {
                Socket socket = new Socket();
                try {
                    socket.connect(address, 500);
                    queued.add(socket);
                } catch (SocketTimeoutException e) {
                    socket.close();
                    full = true;
                }
            }
            assertTrue(full, "the listening socket's accept queue did not fill: it cannot stand for a silent node");
            String node = "127.0.0.1:" + silent.getLocalPort();

            long start = System.nanoTime();
            var e = assertThrows(
                    BrokerException.class,
                    () -> BrokerConnection.open(
                            uri,
                            prefix,
                            "silent-nodes",
                            BrokerConnection.DEFAULT_HEARTBEAT,
                            false,
                            List.of(node, node)));
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertTrue(
                    took.compareTo(BrokerConnection.CONNECT_TIMEOUT
                                    .multipliedBy(3)
                                    .dividedBy(2))
                            < 0,
                    "two silent nodes took " + took + " to give up, " + e.getMessage());

            var amqp = server.amqp();
            String live = amqp.getHost() + ":" + (amqp.getPort() < 0 ? 5672 : amqp.getPort());
            start = System.nanoTime();
            try (BrokerConnection connection = BrokerConnection.open(
                    uri, prefix, "one-silent-node", BrokerConnection.DEFAULT_HEARTBEAT, false, List.of(node, live))) {
                took = Duration.ofNanos(System.nanoTime() - start);
                assertTrue(connection.isOpen());
                assertTrue(
                        took.compareTo(BrokerConnection.CONNECT_TIMEOUT) < 0,
                        "a silent node and a live one took " + took + " to connect");
                Channel ch = connection.newChannel();
                ch.queueDelete(connection.topology().taskQueue());
                ch.exchangeDelete(connection.topology().events());
                ch.close();
            }
        } finally {
            for (Socket socket : queued) {
                socket.close();
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
