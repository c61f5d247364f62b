package dev.cairn.storage.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.Supplier;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.cairn.storage.db.Databases;

/**
 * A fresh PostgreSQL database for one test class, dropped after it:
 * {@snippet :
 * @RegisterExtension static final TestDatabase db = new TestDatabase();
 *
 * @Test void ...() throws SQLException {
 *     try (Connection c = db.connect()) { ... }
 * }
 * }
 * The server comes from {@link TestServices}. Register it on a {@code static} field: the
 * database lives from before the class's first test to after its last, and
 * {@code @Nested} classes share it. The drop uses {@code WITH (FORCE)}, so connections a
 * test left open do not keep the database alive.
 */
public final class TestDatabase implements BeforeAllCallback, AfterAllCallback {

    private final Supplier<PostgresServer> servers;
    private PostgresServer server;
    private String name;
    private boolean live;
    private String ownerId;

    /** A database on the server {@link TestServices#fromEnvironment()} finds. */
    public TestDatabase() {
        this(() -> TestServices.fromEnvironment().postgres());
    }

    /** A database on the given server. */
    public TestDatabase(PostgresServer server) {
        this(() -> server);
    }

    private TestDatabase(Supplier<PostgresServer> servers) {
        this.servers = servers;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws SQLException {
        // A @Nested class inherits the extension and calls this again: it shares the database.
        if (ownerId != null) {
            return;
        }
        create(context.getRequiredTestClass().getSimpleName());
        ownerId = context.getUniqueId();
    }

    @Override
    public void afterAll(ExtensionContext context) throws SQLException {
        if (context.getUniqueId().equals(ownerId)) {
            ownerId = null;
            drop();
        }
    }

    /** Creates the database; {@code label} becomes part of its name. */
    void create(String label) throws SQLException {
        if (live) {
            throw new IllegalStateException("database " + name + " exists already");
        }
        server = servers.get();
        name = UniqueName.of("cairn_test", label);
        try (Connection admin = DriverManager.getConnection(server.adminUrl());
                Statement statement = admin.createStatement()) {
            statement.execute("CREATE DATABASE \"" + name + "\"");
        } catch (SQLException e) {
            throw new SQLException(
                    "cannot create database " + name + " on " + server + " (the user needs CREATEDB): "
                            + e.getMessage(),
                    e.getSQLState(),
                    e);
        }
        live = true;
    }

    /** Drops the database, closing the connections still open on it (see {@link Databases#drop}). */
    void drop() throws SQLException {
        if (!live) {
            return;
        }
        try (Connection admin = DriverManager.getConnection(server.adminUrl())) {
            Databases.drop(admin, name);
        }
        live = false;
    }

    /** The database's name; still answers after the drop, for messages. */
    public String name() {
        requireCreated();
        return name;
    }

    /** The JDBC URL of this database, with the user and password as query parameters. */
    public String jdbcUrl() {
        requireLive();
        return server.urlFor(name);
    }

    public String user() {
        requireLive();
        return server.user();
    }

    public String password() {
        requireLive();
        return server.password();
    }

    /** A new connection to this database; the caller closes it. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl());
    }

    private void requireCreated() {
        if (name == null) {
            throw new IllegalStateException("no database yet: register TestDatabase on a static field with"
                    + " @RegisterExtension, so that it is created before the tests run");
        }
    }

    private void requireLive() {
        requireCreated();
        if (!live) {
            throw new IllegalStateException("database " + name + " has been dropped");
        }
    }
}
