package dev.cairn.api.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.qpid.server.SystemLauncher;
import org.apache.qpid.server.SystemLauncherListener;
import org.apache.qpid.server.model.BrokerImpl;
import org.apache.qpid.server.model.BrokerModel;
import org.apache.qpid.server.model.SystemConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.errors.UnavailableException;

/**
 * An AMQP 0-9-1 broker in this JVM (Qpid Broker-J, a memory virtual host), for the embedded mode:
 * the engine talks to it with the same client and code as to RabbitMQ. It listens on loopback
 * only, on a free port, with a user whose password is made afresh at every start. Its queues live
 * in memory: after a restart the server sends the tasks of every due process again.
 */
public final class EmbeddedBroker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedBroker.class);
    private static final String USER = "cairn";

    private final SystemLauncher launcher;
    private final int port;
    private final String password;

    private EmbeddedBroker(SystemLauncher launcher, int port, String password) {
        this.launcher = launcher;
        this.port = port;
        this.password = password;
    }

    /** Starts a broker whose work files go to {@code folder}. */
    public static EmbeddedBroker start(Path folder) {
        byte[] secret = new byte[16];
        new SecureRandom().nextBytes(secret);
        String password = HexFormat.of().formatHex(secret);
        int port = freeLoopbackPort();
        try {
            Files.createDirectories(folder);
            Path config = folder.resolve("initial-config.json");
            Files.writeString(config, JsonCodec.write(configuration(port, password)));
            Map<String, Object> attributes = new LinkedHashMap<>();
            attributes.put("type", "Memory");
            attributes.put("initialConfigurationLocation", config.toUri().toString());
            attributes.put("startupLoggedToSystemOut", false);
            attributes.put("context", Map.of("qpid.work_dir", folder.toString(), "qpid.home_dir", folder.toString()));
            long started = System.nanoTime();
            AtomicReference<SystemConfig<?>> system = new AtomicReference<>();
            SystemLauncher launcher = new SystemLauncher(new SystemLauncherListener.DefaultSystemLauncherListener() {
                @Override
                public void onContainerResolve(SystemConfig<?> config) {
                    system.set(config);
                }
            });
            launcher.startup(attributes);
            removeQpidShutdownHook(system.get());
            try {
                awaitListening(port);
            } catch (RuntimeException | InterruptedException e) {
                launcher.shutdown();
                throw e;
            }
            LOG.info("embedded AMQP broker on port {} ({} ms)", port, (System.nanoTime() - started) / 1_000_000);
            return new EmbeddedBroker(launcher, port, password);
        } catch (IOException e) {
            throw new UncheckedIOException("writing the embedded broker's configuration to " + folder, e);
        } catch (Exception e) {
            throw new UnavailableException("the embedded AMQP broker did not start: " + e.getMessage(), e);
        }
    }

    /** The broker's model: one memory virtual host, a plain-password user, one AMQP port on loopback. */
    private static Map<String, Object> configuration(int port, String password) {
        Map<String, Object> broker = new LinkedHashMap<>();
        broker.put("name", "cairn");
        broker.put("modelVersion", BrokerModel.MODEL_VERSION);
        broker.put(
                "virtualhostnodes",
                List.of(Map.of(
                        "type", "Memory",
                        "name", "default",
                        "defaultVirtualHostNode", "true",
                        "virtualHostInitialConfiguration", "{\"type\": \"Memory\"}")));
        broker.put(
                "authenticationproviders",
                List.of(Map.of(
                        "type",
                        "Plain",
                        "name",
                        "plain",
                        "secureOnlyMechanisms",
                        List.of(),
                        "users",
                        List.of(Map.of("type", "managed", "name", USER, "password", password)))));
        broker.put(
                "ports",
                List.of(Map.of(
                        "name",
                        "AMQP",
                        "port",
                        port,
                        "bindingAddress",
                        "127.0.0.1",
                        "transports",
                        List.of("TCP"),
                        "authenticationProvider",
                        "plain",
                        "virtualhostaliases",
                        List.of(
                                Map.of("type", "defaultAlias", "name", "defaultAlias"),
                                Map.of("type", "nameAlias", "name", "nameAlias")))));
        return broker;
    }

    /**
     * Qpid stops its broker in a JVM shutdown hook of its own, which runs beside Spring's and would
     * close the broker under a worker still finishing its steps. The server closes the broker itself,
     * after the engine ({@code Services.close}); Qpid has no setting for its hook, hence reflection.
     */
    private static void removeQpidShutdownHook(SystemConfig<?> system) {
        try {
            Field hook = BrokerImpl.class.getDeclaredField("_shutdownHook");
            hook.setAccessible(true);
            Runtime.getRuntime().removeShutdownHook((Thread) hook.get(system.getContainer()));
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.warn(
                    "Qpid's shutdown hook stays ({}): the broker may stop before the worker when the JVM stops",
                    e.toString());
        }
    }

    private static int freeLoopbackPort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UnavailableException("no free port on loopback for the embedded broker", e);
        }
    }

    /** Qpid does not fail when it cannot bind its port (clients just time out): check that it listens. */
    private static void awaitListening(int port) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() > deadline) {
                    throw new UnavailableException("the embedded AMQP broker does not listen on port " + port);
                }
                Thread.sleep(20);
            }
        }
    }

    /** The AMQP URI of the broker's default virtual host. */
    public String amqpUri() {
        return "amqp://" + USER + ":" + password + "@127.0.0.1:" + port + "/";
    }

    @Override
    public void close() {
        launcher.shutdown();
    }
}
