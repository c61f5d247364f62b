package dev.cairn.api.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.cairn.errors.UnavailableException;

/**
 * A real PostgreSQL (zonky's binaries) whose cluster lives in a folder of the data directory and
 * survives restarts: the first start runs initdb, later ones find the same databases. It listens
 * on loopback only, on a free port chosen at each start. Closing it stops the server process.
 */
public final class EmbeddedDatabase implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);

    /** The database the server keeps its graph in. */
    static final String DATABASE = "cairn";

    private final EmbeddedPostgres postgres;

    private EmbeddedDatabase(EmbeddedPostgres postgres) {
        this.postgres = postgres;
    }

    /** Starts the cluster in {@code folder} (made, with initdb, on the first start). */
    public static EmbeddedDatabase start(Path folder) {
        try {
            Files.createDirectories(folder);
            long started = System.nanoTime();
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(folder.resolve("cluster"))
                    .setCleanDataDirectory(false)
                    // the binaries are unpacked once, beside the cluster, not into /tmp
                    .setOverrideWorkingDirectory(folder.resolve("binaries").toFile())
                    .setServerConfig("listen_addresses", "localhost")
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setRegisterShutdownHook(false)
                    .start();
            EmbeddedDatabase database = new EmbeddedDatabase(postgres);
            database.createCairnDatabase();
            LOG.info(
                    "embedded PostgreSQL on port {} ({} ms), cluster in {}",
                    postgres.getPort(),
                    (System.nanoTime() - started) / 1_000_000,
                    folder);
            return database;
        } catch (IOException | SQLException e) {
            throw new UnavailableException(
                    "the embedded PostgreSQL did not start in " + folder + ": " + e.getMessage(), e);
        }
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

    /** The JDBC URL of Cairn's database on this cluster, with its user. */
    public String jdbcUrl() {
        return postgres.getJdbcUrl("postgres", DATABASE);
    }

    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            LOG.warn("stopping the embedded PostgreSQL: {}", e.getMessage());
        }
    }
}
