package dev.cairn.engine.internal.broker;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Address;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import com.rabbitmq.client.ShutdownSignalException;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * One connection to the broker that recovers by itself: after a broker restart or a
 * network failure the client reconnects, reopens its channels and re-declares queues,
 * exchanges, bindings and consumers, every {@link #RECOVERY_INTERVAL_MS} until it works.
 */
public final class BrokerConnection implements AutoCloseable {

    static final int RECOVERY_INTERVAL_MS = 1000;
    static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(15);
    /** How long a TCP connect to the one broker may take. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /**
     * How long a TCP connect to one node of a cluster may take before the next is tried: a node
     * whose host is cut off answers nothing, and every (re)connection tries the nodes in a new
     * order. A live node's kernel answers within milliseconds, or after a lost SYN's retry at 1 s.
     */
    static final Duration NODE_CONNECT_TIMEOUT = Duration.ofSeconds(3);
    /** What RabbitMQ answers a passive declare of a queue it does not have. */
    private static final int NOT_FOUND = 404;

    private final Connection connection;
    private final Topology topology;
    /**
     * Kept open for the connection's life: the client re-declares a recovered connection's
     * queues and exchanges on the channel that last declared them, so that channel must live.
     * Every declaration goes through it ({@link #declareTopology}).
     */
    private Channel topologyChannel;

    private BrokerConnection(Connection connection, Topology topology, Channel topologyChannel) {
        this.connection = connection;
        this.topology = topology;
        this.topologyChannel = topologyChannel;
    }

    /**
     * Connects and declares the topology of {@code prefix}.
     *
     * @param amqpUri amqp://user:password@host:port/vhost
     * @param name    shown in the broker's connection list (e.g. "cairn-worker@host")
     */
    public static BrokerConnection open(String amqpUri, String prefix, String name) {
        return open(amqpUri, prefix, name, DEFAULT_HEARTBEAT, false, List.of());
    }

    /**
     * Connects asking for {@code heartbeat} and declares the topology of {@code prefix}: a peer
     * silent for about two heartbeats is given up (by the broker: the connection's unacknowledged
     * tasks go to other consumers; by the client: it reconnects). With {@code quorum}, the task
     * queue is a quorum queue ({@link Topology}). With {@code addresses} ({@code host[:port]}, the
     * nodes of a cluster), the client tries them in a shuffled order and connects to one that
     * answers, and so does every reconnection; the URI gives the rest (user, password, virtual
     * host, TLS).
     */
    public static BrokerConnection open(
            String amqpUri, String prefix, String name, Duration heartbeat, boolean quorum, List<String> addresses) {
        ConnectionFactory factory = factory(amqpUri);
        factory.setAutomaticRecoveryEnabled(true);
        factory.setTopologyRecoveryEnabled(true);
        factory.setNetworkRecoveryInterval(RECOVERY_INTERVAL_MS);
        factory.setRequestedHeartbeat((int) heartbeat.toSeconds());
        factory.setConnectionTimeout((int) (addresses.size() > 1 ? NODE_CONNECT_TIMEOUT : CONNECT_TIMEOUT).toMillis());
        try {
            Connection connection = addresses.isEmpty()
                    ? factory.newConnection(name)
                    : factory.newConnection(
                            addresses.stream().map(Address::parseAddress).toList(), name);
            Topology topology = new Topology(prefix, quorum);
            Channel channel = connection.createChannel();
            try {
                topology.declare(channel);
            } catch (InvalidInputException e) {
                connection.abort(1000);
                throw e;
            }
            return new BrokerConnection(connection, topology, channel);
        } catch (IOException | TimeoutException e) {
            throw new BrokerException("cannot connect to the broker at " + redact(amqpUri) + ": " + e.getMessage(), e);
        }
    }

    public Topology topology() {
        return topology;
    }

    /**
     * Declares the task queue and the events exchange again (a task queue someone deleted), with
     * the arguments they were first declared with, on the channel kept for them; a refusal closes
     * that channel, and the next call opens another.
     */
    synchronized void declareTopology() throws IOException {
        if (!topologyChannel.isOpen()) {
            topologyChannel = newChannel();
        }
        topology.declare(topologyChannel);
    }

    Channel newChannel() {
        try {
            Channel channel = connection.createChannel();
            if (channel == null) {
                throw new BrokerException("cannot open a channel: the connection has no channel number left", null);
            }
            return channel;
        } catch (IOException | ShutdownSignalException e) {
            // a connection that is down (recovering, or closed) refuses with AlreadyClosedException, a
            // ShutdownSignalException: an outage like any other, for callers that handle BrokerException
            throw new BrokerException("cannot open a channel: " + e.getMessage(), e);
        }
    }

    /** The task queue's ready messages and consumers, by a passive declare on a channel of its own. */
    public QueueCounts taskQueueCounts() {
        return taskQueueCountsIfDeclared()
                .orElseThrow(() -> new BrokerException(
                        "cannot count the task queue " + topology.taskQueue() + ": it is not on the broker", null));
    }

    /** As {@link #taskQueueCounts}, or empty if the broker has no task queue (404 NOT_FOUND). */
    Optional<QueueCounts> taskQueueCountsIfDeclared() {
        Channel channel = newChannel();
        try {
            AMQP.Queue.DeclareOk ok = channel.queueDeclarePassive(topology.taskQueue());
            return Optional.of(new QueueCounts(ok.getMessageCount(), ok.getConsumerCount()));
        } catch (IOException e) {
            if (e.getCause() instanceof ShutdownSignalException s
                    && s.getReason() instanceof AMQP.Channel.Close close
                    && close.getReplyCode() == NOT_FOUND) {
                return Optional.empty();
            }
            throw new BrokerException("cannot count the task queue " + topology.taskQueue() + ": " + e.getMessage(), e);
        } catch (ShutdownSignalException e) {
            throw new BrokerException("cannot count the task queue " + topology.taskQueue() + ": " + e.getMessage(), e);
        } finally {
            try {
                if (channel.isOpen()) {
                    channel.close();
                }
            } catch (IOException | TimeoutException | ShutdownSignalException ignored) {
                // a channel that failed is closed by the broker already
            }
        }
    }

    public boolean isOpen() {
        return connection.isOpen();
    }

    @Override
    public void close() {
        try {
            if (connection.isOpen()) {
                connection.close(5000);
            }
        } catch (IOException | RuntimeException e) {
            connection.abort(1000);
        }
    }

    /** A factory of connections to {@code amqpUri}; {@link InvalidInputException} if it is not an AMQP URI. */
    static ConnectionFactory factory(String amqpUri) {
        ConnectionFactory factory = new ConnectionFactory();
        try {
            URI uri = new URI(amqpUri);
            factory.setUri(uri);
            // "amqp://host/" names the empty vhost by the AMQP URI rules; everyone means the default one
            if (uri.getRawPath() == null
                    || uri.getRawPath().isEmpty()
                    || uri.getRawPath().equals("/")) {
                factory.setVirtualHost("/");
            }
        } catch (URISyntaxException | GeneralSecurityException | IllegalArgumentException e) {
            throw new InvalidInputException(
                    "not an AMQP URI (amqp://user:password@host:port/vhost): " + redact(amqpUri), e);
        }
        return factory;
    }

    /** The URI without its password, for messages. */
    static String redact(String uri) {
        return uri == null ? "null" : uri.replaceAll("(//[^:/@]+:)[^@]*@", "$1***@");
    }
}
