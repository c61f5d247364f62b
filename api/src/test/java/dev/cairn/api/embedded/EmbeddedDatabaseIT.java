package dev.cairn.api.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.DatabaseConfig;

/** The embedded cluster and the server's connections to it through its Unix socket. */
class EmbeddedDatabaseIT {

    @TempDir
    static Path dir;

    private static EmbeddedDatabase database;

    @BeforeAll
    static void start() {
        database = EmbeddedDatabase.start(dir.resolve("postgres"));
    }

    @AfterAll
    static void stop() {
        if (database != null) {
            database.close();
        }
    }

    @Test
    void theServerConnectsThroughTheClustersUnixSocketAndReadsWhatTcpReads() throws Exception {
        String url = database.jdbcUrl();
        Path socket = dir.resolve("postgres/socket").toAbsolutePath();
        assertTrue(url.contains("socketFactory=dev.cairn.storage.db.UnixSocketFactory"), url);
        assertTrue(Files.exists(socket.resolve(".s.PGSQL." + port(url))), url);
        String tcp = url.substring(0, url.indexOf("&socketFactory="));
        try (Connection unix = DriverManager.getConnection(url);
                Connection loopback = DriverManager.getConnection(tcp)) {
            // PostgreSQL has no address of its own on a connection through a Unix socket
            assertNull(single(unix, "SELECT inet_server_addr()::text"));
            assertNotNull(single(loopback, "SELECT inet_server_addr()::text"));
            // 30 MB of rows, long and short, multi-byte, read by cursor as the query streams do
            String rows = "SELECT i, repeat('é🙂\"\\' || i, (i % 7) * 400) FROM generate_series(1, 10000) AS i";
            assertEquals(digest(loopback, rows), digest(unix, rows));
        }
    }

    @Test
    void theServersPoolConnectsThroughTheSocketToo() throws Exception {
        try (Database db = Database.open(DatabaseConfig.of(database.jdbcUrl()));
                Connection c = db.connection()) {
            assertNull(single(c, "SELECT inet_server_addr()::text"));
        }
    }

    @Test
    void aSocketTimeoutEndsAStatementThatOutlastsIt() throws Exception {
        try (Connection c = DriverManager.getConnection(database.jdbcUrl() + "&socketTimeout=1")) {
            long started = System.nanoTime();
            SQLException e = assertThrows(SQLException.class, () -> single(c, "SELECT pg_sleep(20)::text"));
            long waited = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
            assertTrue(waited < 10, "waited " + waited + " s");
            assertTrue(causedBy(e, SocketTimeoutException.class), String.valueOf(e));
        }
    }

    @Test
    void abortingAConnectionEndsTheStatementItWaitsOn() throws Exception {
        var executor = Executors.newSingleThreadExecutor();
        try (Connection c = DriverManager.getConnection(database.jdbcUrl())) {
            CompletableFuture<SQLException> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    single(c, "SELECT pg_sleep(60)::text");
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            });
            // the statement is running once the server shows it: then abort
            try (Connection watcher = DriverManager.getConnection(database.jdbcUrl())) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (single(
                                watcher,
                                "SELECT count(*)::text FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(60)%'")
                        .equals("0")) {
                    assertTrue(System.nanoTime() < deadline, "the statement never started");
                    Thread.onSpinWait();
                }
            }
            c.abort(executor);
            SQLException e = waiting.get(20, TimeUnit.SECONDS);
            assertNotNull(e, "the statement ended without a failure");
            assertTrue(causedBy(e, SocketException.class), String.valueOf(e));
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void aDataDirectoryTooDeepForASocketConnectsByTcp() throws Exception {
        Path deep = dir.resolve("d".repeat(60)).resolve("e".repeat(60)).resolve("postgres");
        try (EmbeddedDatabase tcp = EmbeddedDatabase.start(deep);
                Connection c = DriverManager.getConnection(tcp.jdbcUrl())) {
            assertFalse(tcp.jdbcUrl().contains("socketFactory"), tcp.jdbcUrl());
            assertNotNull(single(c, "SELECT inet_server_addr()::text"));
        }
    }

    private static String single(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }

    private static String digest(Connection c, String sql) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.setFetchSize(1000);
            try (ResultSet rs = s.executeQuery(sql)) {
                while (rs.next()) {
                    sha.update(rs.getBytes(1));
                    sha.update(rs.getBytes(2));
                }
            }
        } finally {
            c.commit();
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static int port(String url) {
        return Integer.parseInt(url.replaceFirst("^jdbc:postgresql://[^:]+:(\\d+)/.*$", "$1"));
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
