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
            Files.writeString(
                    data.resolve("pg_hba.conf"),
                    "host all all " + Network.SUBNET + ".0/24 scram-sha-256\n",
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> all = new ArrayList<>(List.of(
                "listen_addresses=" + address,
                "port=" + PORT,
                "unix_socket_directories=" + socketDir,
                // workers on four hosts with pools of 16, the tests' own engine and their checks
                "max_connections=300"));
        settings.forEach((k, v) -> all.add(k + "=" + v));
        PostgresNode node = new PostgresNode(host, address, data, socketDir, List.copyOf(all));
        node.run();
        return node;
    }

    /** Starts the server on its cluster (again, after a stop or a kill) and waits until it takes connections. */
    public void run() {
        List<String> command = new ArrayList<>(List.of(bin("postgres"), "-D", data.toString()));
        for (String setting : settings) {
            command.add("-c");
            command.add(setting);
        }
        postgres = host.start("postgres", asPostgres(command));
        postgres.awaitLine(
                l -> l.contains("database system is ready to accept connections"), "readiness", Duration.ofMinutes(1));
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

    /** The server as the tests reach it, through the relay: {@code jdbc:postgresql://127.0.0.1:PORT/postgres?user=cairn&…}. */
    public PostgresServer server() {
        return PostgresServer.parse(
                "jdbc:postgresql://" + relay.hostAndPort() + "/postgres?user=" + USER + "&password=" + PASSWORD);
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
