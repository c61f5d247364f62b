package dev.cairn.e2e.hosts;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import dev.cairn.storage.testing.PostgresServer;

/**
 * A pg_auto_failover formation of Debian's {@code pg-auto-failover-cli} and
 * {@code postgresql-15-auto-failover} on hosts of its own: a monitor on {@code monitor} and two data
 * nodes on {@code pg1} and {@code pg2}, each a {@code pg_autoctl run} (its keeper, which starts and
 * watches the node's PostgreSQL), all on port {@value PostgresNode#PORT} with a Unix socket in the
 * host's folder. pg1 starts as the primary, pg2 as its synchronous standby; when the monitor finds
 * the primary gone it promotes the standby by itself, and a node whose keeper runs again rewinds
 * ({@code pg_rewind}) and follows the primary.
 * <p>
 * The nodes trust each other and the monitor (their own {@code pg_hba.conf} lines, which
 * pg_autoctl writes); Cairn's role {@code cairn} logs in with its password from the network.
 */
public final class AutoFailover implements AutoCloseable {

    /**
     * The monitor's health checks, shortened from 5 s periods and a 20 s "unhealthy" timeout so that
     * a failover takes seconds: a node is unhealthy once a check and its retry failed and it has
     * not reported for 2 s; a primary that cannot be reached is taken as demoted after 3 s.
     */
    static final Map<String, String> MONITOR_SETTINGS = Map.of(
            "pgautofailover.health_check_period", "1000",
            "pgautofailover.health_check_timeout", "1000",
            "pgautofailover.health_check_max_retries", "1",
            "pgautofailover.health_check_retry_delay", "500",
            "pgautofailover.node_considered_unhealthy_timeout", "2000",
            "pgautofailover.primary_demote_timeout", "3000");

    private static final Duration START = Duration.ofMinutes(2);

    /** One {@code pg_autoctl} node: the monitor, or a data node. */
    public static final class Node {
        private final Host host;
        private final Path dir;
        private HostProcess keeper;
        private int runs;

        private Node(Host host) {
            this.host = host;
            this.dir = host.dir().resolve("pg_autoctl");
        }

        public String name() {
            return host.name();
        }

        public Host host() {
            return host;
        }

        Path data() {
            return dir.resolve("data");
        }

        Path socket() {
            return dir.resolve("socket").resolve(".s.PGSQL." + PostgresNode.PORT);
        }

        /**
         * {@code pg_autoctl args} as {@code postgres}, its configuration and state in this node's
         * folder, and its PostgreSQL's socket there ({@code PG_REGRESS_SOCK_DIR} is the one way
         * pg_autoctl has to move it from the shared {@code /var/run/postgresql}).
         */
        List<String> autoctl(String... args) {
            List<String> command = new ArrayList<>(List.of(
                    "env",
                    "PATH=/usr/lib/postgresql/15/bin:/usr/bin:/bin",
                    "HOME=" + dir,
                    "XDG_CONFIG_HOME=" + dir.resolve("config"),
                    "XDG_DATA_HOME=" + dir.resolve("state"),
                    "XDG_RUNTIME_DIR=" + dir.resolve("run"),
                    "PG_REGRESS_SOCK_DIR=" + socket().getParent(),
                    "PGHOST=" + socket().getParent(),
                    "PGPORT=" + PostgresNode.PORT,
                    "PGDATA=" + data(),
                    "pg_autoctl"));
            command.addAll(List.of(args));
            return PostgresNode.asPostgres(command);
        }

        /** Runs {@code sql} with psql on this node's socket, in {@code database}; what it printed, unaligned. */
        String sql(String database, String sql) {
            return host.exec(PostgresNode.asPostgres(List.of(
                    PostgresNode.bin("psql"),
                    "--host=" + socket().getParent(),
                    "--port=" + PostgresNode.PORT,
                    "--username=postgres",
                    "--dbname=" + database,
                    "--no-align",
                    "--tuples-only",
                    "--no-psqlrc",
                    "--command=" + sql)));
        }

        /** Starts this node's keeper ({@code pg_autoctl run}, or the {@code create … --run} given). */
        void run(String... args) {
            keeper = host.start("pg_autoctl-" + ++runs, autoctl(args.length == 0 ? new String[] {"run"} : args));
        }

        /** The end of the keeper's log, for failure messages. */
        String tail() {
            return keeper == null ? "" : keeper.tail();
        }
    }

    private final Node monitor;
    private final List<Node> nodes;
    private final Relay relay;

    private AutoFailover(Node monitor, List<Node> nodes) {
        this.monitor = monitor;
        this.nodes = nodes;
        // to the first primary's socket, which is there once it runs
        this.relay = Relay.toSocket(nodes.getFirst().socket());
    }

    /**
     * Starts the monitor, then pg1 as the primary (a cluster made with {@code initdb} first, so that
     * it allows {@code max_connections} for every worker, and the role {@code cairn} made on it),
     * then pg2 as its standby; returns once pg2 is pg1's synchronous standby.
     */
    public static AutoFailover start(Network network) {
        Node monitor = new Node(network.host("monitor"));
        List<Node> nodes = List.of(new Node(network.host("pg1")), new Node(network.host("pg2")));
        for (Node n : List.of(monitor, nodes.get(0), nodes.get(1))) {
            makeFolders(n);
        }
        monitor.run(
                "create",
                "monitor",
                "--pgdata",
                monitor.data().toString(),
                "--pgport",
                "" + PostgresNode.PORT,
                "--hostname",
                monitor.host.address(),
                "--auth",
                "trust",
                "--no-ssl",
                "--run");
        await(
                () -> holds(() ->
                        monitor.sql("pg_auto_failover", "SELECT 1").strip().equals("1")),
                "the monitor up",
                START,
                monitor::tail);
        MONITOR_SETTINGS.forEach((k, v) -> monitor.sql("pg_auto_failover", "ALTER SYSTEM SET " + k + " = " + v));
        monitor.sql("pg_auto_failover", "SELECT pg_reload_conf()");
        AutoFailover formation = new AutoFailover(monitor, nodes);

        Node first = nodes.getFirst();
        first.host.exec(PostgresNode.asPostgres(List.of(
                PostgresNode.bin("initdb"),
                "--pgdata=" + first.data(),
                "--auth-local=trust",
                "--auth-host=scram-sha-256",
                "--encoding=UTF8",
                "--locale=C.UTF-8",
                "--no-sync")));
        append(first.data().resolve("postgresql.conf"), "max_connections = 300\n");
        // Cairn's clients; pg_autoctl adds the lines of its own users (monitor, replication) below
        append(first.data().resolve("pg_hba.conf"), "host all cairn " + Network.SUBNET + ".0/24 scram-sha-256\n");
        formation.createNode(first);
        formation.awaitStates(Map.of(first.name(), "single"), START);
        first.sql(
                "postgres",
                "CREATE ROLE " + PostgresNode.USER + " SUPERUSER LOGIN PASSWORD '" + PostgresNode.PASSWORD + "'");
        formation.createNode(nodes.get(1));
        formation.awaitStates(Map.of(first.name(), "primary", nodes.get(1).name(), "secondary"), START);
        return formation;
    }

    private void createNode(Node node) {
        node.run(
                "create",
                "postgres",
                "--pgdata",
                node.data().toString(),
                "--pgport",
                "" + PostgresNode.PORT,
                "--pgctl",
                PostgresNode.bin("pg_ctl"),
                "--hostname",
                node.host.address(),
                "--name",
                node.name(),
                "--auth",
                "trust",
                "--no-ssl",
                "--monitor",
                monitorUri(),
                "--run");
    }

    private String monitorUri() {
        return "postgres://autoctl_node@" + monitor.host.address() + ":" + PostgresNode.PORT
                + "/pg_auto_failover?sslmode=disable";
    }

    /** The data nodes, pg1 and pg2. */
    public List<Node> nodes() {
        return nodes;
    }

    /** The node the monitor has as the primary now (reported and assigned {@code primary}, {@code wait_primary} or {@code single}). */
    public Node primary() {
        String name = monitor.sql(
                        "pg_auto_failover",
                        "SELECT nodename FROM pgautofailover.node WHERE reportedstate = goalstate"
                                + " AND reportedstate IN ('primary', 'wait_primary', 'single')")
                .strip();
        return nodes.stream()
                .filter(n -> n.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("the monitor has no primary; " + report()));
    }

    /** The other data node. */
    public Node other(Node node) {
        return nodes.get(1 - nodes.indexOf(node));
    }

    /**
     * Loses {@code node}: SIGKILL of every process on its host, its keeper and its PostgreSQL's
     * postmaster and backends alike (killing PostgreSQL alone, its keeper would start it again at
     * once, and no failover would be needed).
     */
    public void kill(Node node) {
        node.host.killAll();
    }

    /** Starts {@code node}'s keeper again: it asks the monitor what it is now, rewinds, and follows the primary. */
    public void rejoin(Node node) {
        node.run();
    }

    /** Waits until every node named reports the state given and the monitor assigned it; fails with {@link #report()}. */
    public void awaitStates(Map<String, String> states, Duration timeout) {
        List<String> wanted = states.entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue() + " " + e.getValue())
                .toList();
        await(() -> holds(() -> states().containsAll(wanted)), "the nodes " + states, timeout, this::report);
    }

    private List<String> states() {
        return monitor.sql(
                        "pg_auto_failover",
                        "SELECT nodename || ' ' || reportedstate || ' ' || goalstate" + " FROM pgautofailover.node")
                .lines()
                .toList();
    }

    /** From now on the tests reach {@code node} where they reached the primary (the relay of {@link #server()}). */
    public void redirectTestsTo(Node node) {
        relay.redirect(node.socket());
    }

    /** The primary as the tests reach it, through the relay: {@code jdbc:postgresql://127.0.0.1:PORT/postgres?user=cairn&…}. */
    public PostgresServer server() {
        return PostgresServer.parse("jdbc:postgresql://" + relay.hostAndPort() + "/postgres?user=" + PostgresNode.USER
                + "&password=" + PostgresNode.PASSWORD);
    }

    /** The multi-host JDBC URL of {@code database} on both data nodes, as other hosts reach them. */
    public String jdbcUrl(String database) {
        return PostgresNode.multiHostUrl(
                database, nodes.stream().map(n -> n.host.address()).toList());
    }

    /** The monitor's last {@code count} events ({@code pg_autoctl show events}), or why it could not say. */
    public String events(int count) {
        return output(() -> monitor.host.exec(monitor.autoctl(
                "show",
                "events",
                "--count",
                "" + count,
                "--pgdata",
                monitor.data().toString())));
    }

    /** What the monitor says ({@code pg_autoctl show state} and its last events) and each keeper's last lines. */
    public String report() {
        StringBuilder b = new StringBuilder("\n--- pg_autoctl show state ---\n");
        b.append(output(() -> monitor.host.exec(
                monitor.autoctl("show", "state", "--pgdata", monitor.data().toString()))));
        b.append("\n--- pg_autoctl show events ---\n");
        b.append(events(20));
        for (Node n : nodes) {
            b.append(n.tail());
        }
        return b.toString();
    }

    @Override
    public void close() {
        relay.close();
        for (Node n : nodes) {
            n.host.killAll();
        }
        monitor.host.killAll();
    }

    private static void makeFolders(Node n) {
        try {
            for (String sub : List.of("socket", "config", "state", "run")) {
                Files.createDirectories(n.dir.resolve(sub));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Ip.exec(List.of("chown", "-R", "postgres:postgres", n.dir.toString()));
    }

    private static void append(Path file, String text) {
        try {
            Files.writeString(file, text, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Waits until {@code done}; fails after {@code timeout} with {@code diagnostics}. */
    private static void await(BooleanSupplier done, String what, Duration timeout, Supplier<String> diagnostics) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(
                        "pg_auto_failover: not " + what + " within " + timeout.toSeconds() + " s" + diagnostics.get());
            }
            HostProcess.sleep(Duration.ofMillis(200));
        }
    }

    /** Whether {@code check} holds; false while the command it runs fails (a server not up yet). */
    private static boolean holds(BooleanSupplier check) {
        try {
            return check.getAsBoolean();
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /** What {@code command} printed, or why it failed. */
    private static String output(Supplier<String> command) {
        try {
            return command.get();
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
    }
}
