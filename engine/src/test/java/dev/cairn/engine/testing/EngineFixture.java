package dev.cairn.engine.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.Channel;

import dev.cairn.engine.BrokerOptions;
import dev.cairn.engine.Engine;
import dev.cairn.engine.plugin.PluginRegistry;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerSpec;
import dev.cairn.storage.graph.computers.ComputerStore;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * Engines on a test class's own database and virtual host, and counts to check the graph with.
 * Every engine a test opens goes through {@link #open}, which keeps it in {@link #opened} so the
 * suite can ask, at its end, which moves of the state table its engines made.
 */
public final class EngineFixture {

    private static final List<Engine> OPENED = new CopyOnWriteArrayList<>();

    static {
        StateMoves.writeAtExit();
    }

    private EngineFixture() {}

    /** Opens an engine and remembers it for the suite's state-transition coverage. */
    public static Engine open(Engine.Config config) {
        Engine engine = Engine.open(config);
        OPENED.add(engine);
        return engine;
    }

    /** Every engine opened in this JVM through {@link #open}, closed or not (their moves: {@link StateMoves}). */
    public static List<Engine> opened() {
        return List.copyOf(OPENED);
    }

    public static PluginRegistry plugins() {
        return PluginRegistry.load(EngineFixture.class.getClassLoader());
    }

    /** An engine without a broker: it runs processes in-process only. */
    public static Engine local(TestDatabase db) {
        return open(new Engine.Config(DatabaseConfig.of(db.jdbcUrl()).withPoolSize(4), null, "cairn", null, plugins()));
    }

    /** An engine without a broker, with a new object store at {@code store}: it runs calculation jobs in-process. */
    public static Engine localWithObjects(TestDatabase db, Path store) throws IOException {
        Container.init(store, ContainerConfig.defaults()).close();
        return open(
                new Engine.Config(DatabaseConfig.of(db.jdbcUrl()).withPoolSize(4), null, "cairn", store, plugins()));
    }

    /**
     * A computer on this machine (local transport) with {@code scheduler}, its work directories under
     * {@code workdir} and the other settings given; returns its id.
     */
    public static long localComputer(
            Engine engine, String label, String scheduler, Path workdir, Map<String, Object> settings) {
        Map<String, Object> all = new LinkedHashMap<>(settings);
        all.put("workdir", workdir.toString());
        return new ComputerStore(engine.database())
                .create(new ComputerSpec(label, "localhost", "", "core.local", scheduler, all))
                .id();
    }

    /** {@code /bin/bash} installed on a computer, the code the arithmetic.add jobs run. */
    public static InstalledCode bashOn(Engine engine, long computer) {
        return engine.graph().store(new InstalledCode(computer, "/bin/bash"));
    }

    /** {@code /bin/bash} on a computer "localhost" of this machine with the direct scheduler, its work under {@code workdir}. */
    public static InstalledCode bashOnThisMachine(Engine engine, Path workdir) {
        return bashOn(engine, localComputer(engine, "localhost", "core.direct", workdir, Map.of()));
    }

    public static Engine withBroker(TestDatabase db, TestBroker broker) {
        return open(new Engine.Config(
                DatabaseConfig.of(db.jdbcUrl()).withPoolSize(8), amqpUri(broker), "cairn", null, plugins()));
    }

    /** An engine with the test class's broker, its queue and exchange named by {@code prefix}, talking to it as {@code options} say. */
    public static Engine withBroker(TestDatabase db, TestBroker broker, String prefix, BrokerOptions options) {
        return open(new Engine.Config(
                DatabaseConfig.of(db.jdbcUrl()).withPoolSize(6),
                amqpUri(broker),
                prefix,
                null,
                plugins(),
                null,
                null,
                options));
    }

    /**
     * A queue's type as the broker has it ("quorum" or "classic"): a declare that names a type is
     * accepted only when it is the queue's own (406 PRECONDITION_FAILED otherwise, which closes the channel).
     */
    public static String queueType(TestBroker broker, String queue) throws IOException, TimeoutException {
        try (var connection = broker.newConnection()) {
            for (String type : new String[] {"quorum", "classic"}) {
                Channel channel = connection.createChannel();
                try {
                    channel.queueDeclare(queue, true, false, false, Map.of("x-queue-type", type));
                    channel.close();
                    return type;
                } catch (IOException refused) {
                    // another type: the broker closed the channel
                }
            }
        }
        throw new AssertionError("the queue " + queue + " is neither a quorum nor a classic queue");
    }

    /** A computer {@code login} reached over SSH at {@code sshd}, direct scheduler, trusting the server on first use. */
    public static Computer sshComputer(Engine engine, TestSshServer sshd, Path workdir, Path knownHosts) {
        return new ComputerStore(engine.database())
                .create(new ComputerSpec(
                        "login",
                        "127.0.0.1",
                        "",
                        "core.ssh",
                        "core.direct",
                        Map.of("workdir", workdir.toString(), "transport_params", sshd.transportParams(knownHosts))));
    }

    /** An engine with the test class's broker and the object store at {@code store} (made before), for a worker's jobs. */
    public static Engine withBroker(TestDatabase db, TestBroker broker, Path store) {
        return open(new Engine.Config(
                DatabaseConfig.of(db.jdbcUrl()).withPoolSize(6), amqpUri(broker), "cairn", store, plugins()));
    }

    /** The lines a job's script appended to {@code file}, one per run; none while it does not exist. */
    public static List<String> runsIn(Path file) {
        try {
            return Files.exists(file)
                    ? Files.readAllLines(file).stream()
                            .filter(l -> !l.isBlank())
                            .toList()
                    : List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The report lines of node {@code nodeId}, oldest first. */
    public static List<String> reports(TestDatabase db, long nodeId) throws SQLException {
        try (Connection c = db.connect();
                PreparedStatement s = c.prepareStatement(
                        "SELECT message FROM log WHERE node_id = ? AND level_name = 'REPORT' ORDER BY time, id")) {
            s.setLong(1, nodeId);
            List<String> found = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    found.add(rs.getString(1));
                }
            }
            return found;
        }
    }

    /** The AMQP URI of the test class's virtual host. */
    public static String amqpUri(TestBroker broker) {
        var amqp = broker.server().amqp();
        int port = amqp.getPort() < 0 ? 5672 : amqp.getPort();
        return amqp.getScheme() + "://" + (amqp.getRawUserInfo() == null ? "" : amqp.getRawUserInfo() + "@")
                + amqp.getHost() + ":" + port + "/" + URLEncoder.encode(broker.vhost(), StandardCharsets.UTF_8);
    }

    /**
     * The moves of process {@code processId}'s job in its batch system that its events say, in order, each
     * as [from, to] (from null for the first state recorded): read through the event log, as event streams
     * read it.
     */
    public static List<List<String>> schedulerMoves(Engine engine, long processId) {
        return engine.eventLog().ofProcesses(List.of(processId), 0, Long.MAX_VALUE, 1000).stream()
                .filter(row -> row.scheduler() != null)
                .map(row ->
                        Arrays.asList(row.scheduler().from(), row.scheduler().to()))
                .toList();
    }

    public static long count(TestDatabase db, String sql) throws SQLException {
        try (Connection c = db.connect();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
