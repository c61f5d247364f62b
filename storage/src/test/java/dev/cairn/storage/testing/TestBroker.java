package dev.cairn.storage.testing;

import java.io.IOException;
import java.net.URISyntaxException;
import java.security.GeneralSecurityException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

import com.rabbitmq.client.Connection;
import com.rabbitmq.client.ConnectionFactory;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fresh RabbitMQ virtual host for one test class, deleted after it with every queue and
 * exchange in it:
 * {@snippet :
 * @RegisterExtension static final TestBroker broker = new TestBroker();
 *
 * @Test void ...() throws Exception {
 *     try (Connection c = broker.newConnection()) { ... }
 * }
 * }
 * The broker comes from {@link TestServices}; the virtual host is made through the
 * management HTTP API. Register it on a {@code static} field; {@code @Nested} classes
 * share the virtual host. Connections made with {@link #newConnection()} that are still
 * open at the end are closed before the virtual host goes.
 */
public final class TestBroker implements BeforeAllCallback, AfterAllCallback {

    private final Supplier<RabbitServer> servers;
    private final List<Connection> connections = new CopyOnWriteArrayList<>();
    private RabbitServer server;
    private ManagementApi management;
    private String vhost;
    private boolean live;
    private String ownerId;

    /** A virtual host on the broker {@link TestServices#fromEnvironment()} finds. */
    public TestBroker() {
        this(() -> TestServices.fromEnvironment().rabbitmq());
    }

    /** A virtual host on the given broker. */
    public TestBroker(RabbitServer server) {
        this(() -> server);
    }

    private TestBroker(Supplier<RabbitServer> servers) {
        this.servers = servers;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        // A @Nested class inherits the extension and calls this again: it shares the vhost.
        if (ownerId != null) {
            return;
        }
        create(context.getRequiredTestClass().getSimpleName());
        ownerId = context.getUniqueId();
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (context.getUniqueId().equals(ownerId)) {
            ownerId = null;
            delete();
        }
    }

    /** Creates the virtual host and lets the AMQP user do everything in it. */
    void create(String label) throws IOException {
        if (live) {
            throw new IllegalStateException("virtual host " + vhost + " exists already");
        }
        server = servers.get();
        management = new ManagementApi(server);
        vhost = UniqueName.of("cairn_test", label);
        management.createVhost(vhost);
        live = true;
        management.grantAll(vhost, server.user());
    }

    /** Closes the connections handed out, then deletes the virtual host. */
    void delete() throws IOException {
        if (!live) {
            return;
        }
        for (Connection connection : connections) {
            // abort, not close: it does not throw when the broker closed it already
            connection.abort(5_000);
        }
        connections.clear();
        management.deleteVhost(vhost);
        live = false;
    }

    /** The virtual host's name; still answers after the deletion, for messages. */
    public String vhost() {
        if (vhost == null) {
            throw new IllegalStateException("no virtual host yet: register TestBroker on a static field with"
                    + " @RegisterExtension, so that it is created before the tests run");
        }
        return vhost;
    }

    /** The broker this virtual host is on. */
    public RabbitServer server() {
        requireLive();
        return server;
    }

    /**
     * Lets the virtual host hold at most {@code max} queues, so that declaring a new one is refused
     * (406 PRECONDITION_FAILED) while the queues already there work on; null lifts the limit.
     */
    public void limitQueues(Integer max) throws IOException {
        requireLive();
        management.limitQueues(vhost, max);
    }

    /** The broker's account of {@code queue} on this virtual host, for a failure message (see {@link ManagementApi#queue}). */
    public String describeQueue(String queue) {
        return management.queue(vhost(), queue);
    }

    /** A new factory for connections to this virtual host, as the AMQP user. */
    public ConnectionFactory connectionFactory() {
        requireLive();
        ConnectionFactory factory = new ConnectionFactory();
        try {
            factory.setUri(server.amqp());
        } catch (URISyntaxException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot use AMQP URI " + server, e);
        }
        factory.setVirtualHost(vhost);
        return factory;
    }

    /** A new connection to this virtual host; closed at the end of the class if still open. */
    public Connection newConnection() throws IOException, TimeoutException {
        Connection connection = connectionFactory().newConnection("cairn-test " + vhost);
        connections.add(connection);
        return connection;
    }

    private void requireLive() {
        vhost();
        if (!live) {
            throw new IllegalStateException("virtual host " + vhost + " has been deleted");
        }
    }
}
