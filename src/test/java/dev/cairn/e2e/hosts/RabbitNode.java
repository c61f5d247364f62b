package dev.cairn.e2e.hosts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A RabbitMQ node of Debian's {@code rabbitmq-server} on a {@link Host}: its node name
 * {@code rabbit@ADDRESS} (long names, so that nodes on other hosts find it by address with no
 * name service), its database, configuration and Erlang cookie in the host's folder, AMQP on the
 * address's port 5672, user {@code cairn} (password {@code cairn}), log on standard output. Nodes
 * made with the same {@code cookie} may form a cluster ({@link #joinCluster}).
 */
public final class RabbitNode implements AutoCloseable {

    public static final String USER = "cairn";
    public static final String PASSWORD = "cairn";
    static final int PORT = 5672;
    static final String BIN = "/usr/lib/rabbitmq/bin/";

    private final Host host;
    private final String address;
    private final Path home;
    private HostProcess server;
    private Relay relay;

    private RabbitNode(Host host, String address, Path home) {
        this.host = host;
        this.address = address;
        this.home = home;
    }

    /** Writes the node's configuration and cookie, starts it and waits until it serves. */
    public static RabbitNode start(Host host, String address, String cookie, Map<String, String> settings) {
        Path home = host.dir().resolve("rabbitmq-" + address);
        try {
            Files.createDirectories(home);
            StringBuilder conf = new StringBuilder()
                    .append("listeners.tcp.1 = ")
                    .append(address)
                    .append(':')
                    .append(PORT)
                    .append('\n')
                    .append("default_user = ")
                    .append(USER)
                    .append("\ndefault_pass = ")
                    .append(PASSWORD)
                    .append("\nloopback_users = none\n");
            settings.forEach((k, v) -> conf.append(k).append(" = ").append(v).append('\n'));
            Files.writeString(home.resolve("rabbitmq.conf"), conf);
            Files.writeString(home.resolve("enabled_plugins"), "[].\n");
            Path cookieFile = home.resolve(".erlang.cookie");
            Files.deleteIfExists(cookieFile);
            Files.writeString(cookieFile, cookie);
            Files.setPosixFilePermissions(cookieFile, PosixFilePermissions.fromString("r--------"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the configuration of a RabbitMQ node in " + home, e);
        }
        RabbitNode node = new RabbitNode(host, address, home);
        node.run();
        return node;
    }

    /** Starts the node (again, after a stop or a kill) and waits until its AMQP listener is up. */
    public void run() {
        if (!Files.isExecutable(Path.of(BIN, "rabbitmq-server"))) {
            throw new IllegalStateException("no " + BIN + "rabbitmq-server: the hosts' broker is Debian's"
                    + " rabbitmq-server (source .ci/hosts)");
        }
        server = host.start("rabbitmq-" + address, List.of(BIN + "rabbitmq-server"), environment());
        server.awaitLine(l -> l.contains("Server startup complete"), "startup", Duration.ofMinutes(2));
        if (relay == null) {
            relay = Relay.to(host, address, PORT);
        }
    }

    private Map<String, String> environment() {
        return Map.of(
                "HOME", home.toString(),
                "RABBITMQ_USE_LONGNAME", "true",
                "RABBITMQ_NODENAME", nodeName(),
                "RABBITMQ_CONFIG_FILE", home.resolve("rabbitmq.conf").toString(),
                "RABBITMQ_ENABLED_PLUGINS_FILE", home.resolve("enabled_plugins").toString(),
                "RABBITMQ_MNESIA_BASE", home.resolve("mnesia").toString(),
                "RABBITMQ_LOG_BASE", home.resolve("log").toString(),
                "RABBITMQ_LOGS", "-");
    }

    /** {@code rabbit@ADDRESS}. */
    public String nodeName() {
        return "rabbit@" + address;
    }

    /** Runs {@code rabbitmqctl ARGS} against this node, on its host; returns what it printed. */
    public String ctl(String... args) {
        List<String> command = new ArrayList<>(List.of("env"));
        environment().forEach((k, v) -> command.add(k + "=" + v));
        command.add(BIN + "rabbitmqctl");
        command.add("-n");
        command.add(nodeName());
        command.addAll(List.of(args));
        return host.exec(command);
    }

    /** Makes this (fresh) node a member of {@code other}'s cluster: stop_app, join_cluster, start_app. */
    public void joinCluster(RabbitNode other) {
        ctl("stop_app");
        ctl("join_cluster", other.nodeName());
        ctl("start_app");
    }

    /** The AMQP URI as other hosts reach this node, for {@code vhost} ({@code /} by default). */
    public String amqpUri() {
        return "amqp://" + USER + ":" + PASSWORD + "@" + address + ":" + PORT + "/%2F";
    }

    /** The AMQP URI as the tests reach the node, through the relay. */
    public String relayedAmqpUri() {
        return "amqp://" + USER + ":" + PASSWORD + "@" + relayedAddress() + "/%2F";
    }

    /** {@code 127.0.0.1:port}: the node's relay, as the tests reach it. */
    public String relayedAddress() {
        return relay.hostAndPort();
    }

    /** Graceful stop ({@code rabbitmqctl stop}), waiting until the node is down. */
    public void stop() {
        ctl("stop");
        server.awaitExit(Duration.ofMinutes(1));
    }

    /**
     * SIGKILL of the node's Erlang VM and everything it started (the start script forks the VM;
     * epmd, which the VM started as a daemon, lives on as it would on a real host).
     */
    public void kill() {
        List<ProcessHandle> all = new ArrayList<>(ProcessHandle.of(server.pid()).stream()
                .flatMap(ProcessHandle::descendants)
                .toList());
        all.forEach(ProcessHandle::destroyForcibly);
        server.kill();
        all.forEach(p -> p.onExit().join());
    }

    public Host host() {
        return host;
    }

    public String address() {
        return address;
    }

    public HostProcess process() {
        return server;
    }

    @Override
    public String toString() {
        return nodeName();
    }

    @Override
    public void close() {
        if (relay != null) {
            relay.close();
        }
        if (server != null && server.isAlive()) {
            kill();
        }
    }
}
