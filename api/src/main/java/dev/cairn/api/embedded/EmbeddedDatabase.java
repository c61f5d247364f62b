package dev.cairn.api.embedded;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.cairn.storage.db.UnixSocketFactory;
import dev.cairn.storage.errors.UnavailableException;

/**
 * A real PostgreSQL (zonky's binaries) whose cluster lives in a folder of the data directory and
 * survives restarts: the first start runs initdb, later ones find the same databases. It listens
 * on loopback only, on a free port chosen at each start, and on a Unix socket in the folder, which
 * the server's own connections take ({@link UnixSocketFactory}: the kernel does less for each
 * message than on TCP). Closing it stops the server process and waits until it is gone.
 * <p>
 * One server at a time owns the folder (a file lock, held while it runs). A postmaster that a
 * killed server left running there is stopped before the start: its clients died with that server.
 */
public final class EmbeddedDatabase implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);

    /** The database the server keeps its graph in. */
    static final String DATABASE = "cairn";

    private static final Duration STOP_WAIT = Duration.ofSeconds(30);

    /** The longest socket file a {@code sockaddr_un} takes (108 bytes with its terminating zero). */
    private static final int SOCKET_PATH_MAX = 107;

    private final EmbeddedPostgres postgres;
    private final Path cluster;
    private final FileChannel lockChannel;
    private final ProcessHandle postmaster;
    private final Path socket;

    private EmbeddedDatabase(EmbeddedPostgres postgres, Path cluster, FileChannel lockChannel, Path socketFolder) {
        this.postgres = postgres;
        this.cluster = cluster;
        this.lockChannel = lockChannel;
        this.postmaster = Postmaster.of(cluster).orElse(null);
        // PostgreSQL does not start without the sockets it is given, so the file is there
        this.socket = socketFolder == null ? null : socketFolder.resolve(".s.PGSQL." + postgres.getPort());
    }

    /** Starts the cluster in {@code folder} (made, with initdb, on the first start). */
    public static EmbeddedDatabase start(Path folder) {
        folder = folder.toAbsolutePath().normalize(); // the postmaster is recognised by this path
        FileChannel lock = null;
        try {
            Files.createDirectories(folder);
            lock = lock(folder);
            Path cluster = folder.resolve("cluster");
            Postmaster.stopOrphan(cluster, STOP_WAIT);
            long started = System.nanoTime();
            Path sockets = socketFolder(folder);
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(cluster)
                    .setCleanDataDirectory(false)
                    // the binaries are unpacked once, beside the cluster, not into /tmp
                    .setOverrideWorkingDirectory(folder.resolve("binaries").toFile())
                    .setServerConfig("listen_addresses", "localhost")
                    // none where the path is too long: PostgreSQL would not start
                    .setServerConfig("unix_socket_directories", sockets == null ? "" : sockets.toString())
                    // zonky's defaults are a test database's (-F, synchronous_commit off); this
                    // cluster keeps an installation's provenance, so commits reach the disk
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setRegisterShutdownHook(false)
                    .start();
            EmbeddedDatabase database = new EmbeddedDatabase(postgres, cluster, lock, sockets);
            database.createCairnDatabase();
            LOG.info(
                    "embedded PostgreSQL on port {}{} ({} ms), cluster in {}",
                    postgres.getPort(),
                    database.socket == null ? "" : " and " + database.socket,
                    (System.nanoTime() - started) / 1_000_000,
                    cluster);
            return database;
        } catch (IOException | SQLException | RuntimeException e) {
            closeQuietly(lock);
            if (e instanceof UnavailableException unavailable) {
                throw unavailable;
            }
            throw new UnavailableException(
                    "the embedded PostgreSQL did not start in " + folder + ": " + e.getMessage(), e);
        }
    }

    /** Takes the folder for this server; another server running on it is named in the refusal. */
    private static FileChannel lock(Path folder) throws IOException {
        Path file = folder.resolve("server.lock");
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = channel.tryLock();
        if (lock == null) {
            channel.close();
            String owner = Files.readString(file, StandardCharsets.UTF_8).strip();
            throw new UnavailableException("the embedded PostgreSQL in " + folder
                    + " is in use by another Cairn server (pid " + (owner.isEmpty() ? "unknown" : owner)
                    + "); stop it, or give this one another data directory (cairn.data-dir)");
        }
        channel.truncate(0);
        channel.write(StandardCharsets.UTF_8.encode(ProcessHandle.current().pid() + "\n"));
        return channel;
    }

    private void createCairnDatabase() throws SQLException {
        try (Connection c = postgres.getPostgresDatabase().getConnection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'")) {
            if (!rs.next()) {
                s.execute("CREATE DATABASE " + DATABASE);
            }
        }
    }

    /**
     * The JDBC URL of Cairn's database on this cluster, with its user: through its Unix socket, or
     * TCP on loopback where the data directory is too deep for one.
     */
    public String jdbcUrl() {
        String tcp = postgres.getJdbcUrl("postgres", DATABASE);
        if (socket == null) {
            return tcp;
        }
        // no TLS or GSS on a Unix socket: the driver need not ask for them
        return tcp + "&socketFactory=" + UnixSocketFactory.class.getName() + "&socketFactoryArg="
                + URLEncoder.encode(socket.toString(), StandardCharsets.UTF_8) + "&sslmode=disable&gssEncMode=disable";
    }

    /** The folder for PostgreSQL's Unix socket, made; or null where a socket's path would be too long. */
    private static Path socketFolder(Path folder) throws IOException {
        Path sockets = folder.resolve("socket");
        String longest = sockets.resolve(".s.PGSQL.65535").toString();
        if (longest.getBytes(StandardCharsets.UTF_8).length > SOCKET_PATH_MAX) {
            LOG.info(
                    "the data directory's path is too long for a Unix socket ({}): the server connects by TCP",
                    longest);
            return null;
        }
        return Files.createDirectories(sockets);
    }

    /**
     * Stops PostgreSQL (a fast shutdown: sessions end, the cluster is checkpointed) and waits for its
     * process to be gone; if pg_ctl could not stop it, it is asked once more, by a signal.
     */
    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            LOG.warn("stopping the embedded PostgreSQL: {}", e.getMessage());
        }
        if (postmaster != null && !Postmaster.awaitExit(postmaster, STOP_WAIT)) {
            LOG.warn("the embedded PostgreSQL (pid {}) did not stop; sending it SIGTERM", postmaster.pid());
            postmaster.destroy();
            if (!Postmaster.awaitExit(postmaster, STOP_WAIT)) {
                LOG.error("the embedded PostgreSQL (pid {}) is still running in {}", postmaster.pid(), cluster);
            }
        }
        closeQuietly(lockChannel);
        LOG.info("embedded PostgreSQL stopped");
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel == null) {
            return;
        }
        try {
            channel.close(); // releases the lock
        } catch (IOException ignored) {
            // the process ends soon, and the lock with it
        }
    }
}
