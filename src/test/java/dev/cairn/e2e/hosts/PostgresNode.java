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

import dev.cairn.storage.testing.PostgresServer;

/**
 * A PostgreSQL server of Debian's {@code postgresql-15} on a {@link Host}: its own cluster in the
 * host's folder, made with {@code initdb}, run in the foreground as the {@code postgres} user
 * ({@code postgres -D}), listening on the host's address and on a Unix socket in its folder.
 * The role {@code cairn} (password {@code cairn}) is its superuser; other hosts log in with the
 * password, the tests' {@link Relay} through the socket.
 */
public final class PostgresNode implements AutoCloseable {

    public static final String USER = "cairn";
    public static final String PASSWORD = "cairn";
    static final int PORT = 5432;

    private final Host host;
    private final String address;
    private final Path data;
    private final Path socketDir;
    private final List<String> settings;
    private HostProcess postgres;
    private Relay relay;

    private PostgresNode(Host host, String address, Path data, Path socketDir, List<String> settings) {
        this.host = host;
        this.address = address;
        this.data = data;
        this.socketDir = socketDir;
        this.settings = settings;
    }

    /** Makes a new cluster on {@code host} and starts it, listening on {@code address}. */
    public static PostgresNode start(Host host, String address, Map<String, String> settings) {
        Path dir = host.dir().resolve("postgres");
        Path data = dir.resolve("data");
        Path socketDir = dir.resolve("socket");
        try {
            Files.createDirectories(socketDir);
            Files.writeString(dir.resolve("pwfile"), PASSWORD + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Ip.exec(List.of("chown", "-R", "postgres:postgres", dir.toString()));
        Ip.exec(asPostgres(List.of(
                bin("initdb"),
                "--pgdata=" + data,
                "--username=" + USER,
                "--pwfile=" + dir.resolve("pwfile"),
                "--auth-local=trust",
                "--auth-host=scram-sha-256",
                "--encoding=UTF8",
                "--locale=C.UTF-8",
                "--no-sync")));
        try {
            // pg_rewind needs both, to make a lost primary a standby of the one that replaced it: hints
            // in the WAL, and the WAL since the last checkpoint before the two diverged, which the crash
            // recovery it runs first would otherwise recycle; in the file, not on the command line,
            // which that recovery does not see
            Files.writeString(
                    data.resolve("postgresql.conf"),
                    "wal_log_hints = on\nwal_keep_size = '256MB'\n",
                    StandardOpenOption.APPEND);
            Files.writeString(
                    data.resolve("pg_hba.conf"),
                    "host all all " + Network.SUBNET + ".0/24 scram-sha-256\n" + "host replication all "
                            + Network.SUBNET + ".0/24 scram-sha-256\n",
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        PostgresNode node =
                new PostgresNode(host, address, data, socketDir, serverSettings(address, socketDir, settings));
        node.run();
        return node;
    }

    private static List<String> serverSettings(String address, Path socketDir, Map<String, String> settings) {
        List<String> all = new ArrayList<>(List.of(
                "listen_addresses=" + address,
                "port=" + PORT,
                "unix_socket_directories=" + socketDir,
                // workers on four hosts with pools of 16, the tests' own engine and their checks
                "max_connections=300"));
        settings.forEach((k, v) -> all.add(k + "=" + v));
        return List.copyOf(all);
    }

    /**
     * A streaming standby of {@code primary} on {@code host}, listening on {@code address}: a base
     * backup taken over the network ({@code pg_basebackup -R}, which writes the standby's
     * connection to its primary), started, then made the primary's synchronous standby, so that no
     * commit is acknowledged before the standby has it on disk. Returns once the primary says so.
     */
    public static PostgresNode startStandby(
            Host host, String address, PostgresNode primary, Map<String, String> settings) {
        Path dir = host.dir().resolve("postgres");
        Path data = dir.resolve("data");
        Path socketDir = dir.resolve("socket");
        try {
            Files.createDirectories(socketDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Ip.exec(List.of("chown", "-R", "postgres:postgres", dir.toString()));
        host.exec(asPostgres(List.of(
                bin("pg_basebackup"),
                "--dbname=host=" + primary.address + " port=" + PORT + " user=" + USER + " password=" + PASSWORD,
                "--pgdata=" + data,
                "--write-recovery-conf",
                "--wal-method=stream",
                "--checkpoint=fast",
                "--no-sync")));
        PostgresNode standby =
                new PostgresNode(host, address, data, socketDir, serverSettings(address, socketDir, settings));
        standby.run();
        primary.makeSynchronous(standby);
        return standby;
    }

    /** Names {@code standby}, which streams from this server, synchronous, and waits until this server says so. */
    private void makeSynchronous(PostgresNode standby) {
        sql("ALTER SYSTEM SET synchronous_standby_names = '*'");
        sql("SELECT pg_reload_conf()");
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (!sql("SELECT count(*) FROM pg_stat_replication WHERE sync_state = 'sync'")
                .strip()
                .equals("1")) {
            if (System.nanoTime() > deadline) {
                // else every commit here waits for a standby that is not coming, the tests' clean-up too
                sql("ALTER SYSTEM RESET synchronous_standby_names");
                sql("SELECT pg_reload_conf()");
                throw new AssertionError("the standby on " + standby.host.name()
                        + " did not become synchronous within 1 minute" + standby.postgres.tail());
            }
            HostProcess.sleep(Duration.ofMillis(200));
        }
    }

    /**
     * This server, a primary lost and replaced by its promoted standby {@code primary}, made that
     * one's synchronous standby, as an operator does: a checkpoint on the new primary, {@code
     * pg_rewind} to its timeline (it runs the crash recovery a killed server needs first), {@code
     * standby.signal} and {@code primary_conninfo} written by its {@code --write-recovery-conf},
     * started, named synchronous.
     */
    public void rejoinAsStandbyOf(PostgresNode primary) {
        // pg_rewind reads the source's timeline from its control file, which names the new timeline
        // only after the first checkpoint since the promotion: before it, it finds nothing to rewind
        primary.sql("CHECKPOINT");
        host.exec(asPostgres(List.of(
                bin("pg_rewind"),
                "--target-pgdata=" + data,
                "--source-server=host=" + primary.address + " port=" + PORT + " user=" + USER + " password=" + PASSWORD
                        + " dbname=postgres",
                "--write-recovery-conf",
                "--progress")));
        run();
        primary.makeSynchronous(this);
    }

    /** Runs {@code sql} with psql on the server's socket, as {@code cairn}; returns what it printed (unaligned). */
    public String sql(String sql) {
        return sql("postgres", sql);
    }

    /** Runs {@code sql} in {@code database}, as {@link #sql(String)}. */
    public String sql(String database, String sql) {
        return host.exec(asPostgres(List.of(
                bin("psql"),
                "--host=" + socketDir,
                "--port=" + PORT,
                "--username=" + USER,
                "--dbname=" + database,
                "--no-align",
                "--tuples-only",
                "--no-psqlrc",
                "--command=" + sql)));
    }

    /** Promotes this standby to a primary ({@code pg_ctl promote}, which waits until it takes writes). */
    public void promote() {
        host.exec(asPostgres(List.of(bin("pg_ctl"), "promote", "--pgdata=" + data, "--wait")));
    }

    /**
     * From now on the tests reach {@code other} where they reached this server (its relay's
     * address): as a multi-host URL finds the promoted standby after its primary is lost.
     */
    public void redirectTestsTo(PostgresNode other) {
        relay.redirect(other.socketDir.resolve(".s.PGSQL." + PORT));
    }

    /** Starts the server on its cluster (again, after a stop or a kill) and waits until it takes connections. */
    public void run() {
        List<String> command = new ArrayList<>(List.of(bin("postgres"), "-D", data.toString()));
        for (String setting : settings) {
            command.add("-c");
            command.add(setting);
        }
        postgres = host.start("postgres", asPostgres(command));
        // "… accept connections", or "… accept read-only connections" for a standby
        postgres.awaitLine(l -> l.contains("database system is ready to accept"), "readiness", Duration.ofMinutes(1));
        if (relay == null) {
            relay = Relay.toSocket(socketDir.resolve(".s.PGSQL." + PORT));
        }
    }

    /** Fast shutdown (SIGINT: open transactions roll back), waiting until it is down. */
    public void stop() {
        postgres.signal("INT");
        postgres.awaitExit(Duration.ofMinutes(1));
    }

    /** SIGKILL of the postmaster (its backends notice and end by themselves). */
    public void kill() {
        postgres.kill();
    }

    /**
     * SIGKILL of the postmaster and every backend at once, as when its machine is lost: no backend
     * answers another query, and the clients' connections are reset.
     */
    public void killAll() {
        List<ProcessHandle> all = ProcessHandle.of(postgres.pid()).stream()
                .flatMap(ProcessHandle::descendants)
                .toList();
        postgres.kill();
        all.forEach(ProcessHandle::destroyForcibly);
        all.forEach(p -> p.onExit().join());
    }

    /** The server as the tests reach it, through the relay: {@code jdbc:postgresql://127.0.0.1:PORT/postgres?user=cairn&…}. */
    public PostgresServer server() {
        return PostgresServer.parse(
                "jdbc:postgresql://" + relay.hostAndPort() + "/postgres?user=" + USER + "&password=" + PASSWORD);
    }

    /**
     * The JDBC URL of {@code database} on this server and {@code standby}, as other hosts reach them:
     * a multi-host URL whose connections go to whichever of the two is the primary.
     */
    public String jdbcUrl(String database, PostgresNode standby) {
        return multiHostUrl(database, List.of(address, standby.address));
    }

    /** The JDBC URL of {@code database} on the servers at {@code addresses}, connecting to whichever takes writes. */
    static String multiHostUrl(String database, List<String> addresses) {
        return "jdbc:postgresql://" + String.join(":" + PORT + ",", addresses) + ":" + PORT + "/" + database
                + "?targetServerType=primary&user=" + USER + "&password=" + PASSWORD;
    }

    /** The JDBC URL of {@code database} as other hosts of the network reach it. */
    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + address + ":" + PORT + "/" + database + "?user=" + USER + "&password=" + PASSWORD;
    }

    public Host host() {
        return host;
    }

    public String address() {
        return address;
    }

    public HostProcess process() {
        return postgres;
    }

    @Override
    public void close() {
        if (relay != null) {
            relay.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    static String bin(String tool) {
        Path path = Path.of("/usr/lib/postgresql/15/bin", tool);
        if (!Files.isExecutable(path)) {
            throw new IllegalStateException(
                    "no " + path + ": the hosts' PostgreSQL is Debian's postgresql-15 (source .ci/hosts)");
        }
        return path.toString();
    }

    /** {@code command} as the {@code postgres} user (PostgreSQL refuses to run as root). */
    static List<String> asPostgres(List<String> command) {
        List<String> all =
                new ArrayList<>(List.of("setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups", "--"));
        all.addAll(command);
        return all;
    }
}
