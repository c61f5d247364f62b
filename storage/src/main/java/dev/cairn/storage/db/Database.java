package dev.cairn.storage.db;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.hibernate.SessionFactory;
import org.hibernate.cfg.AvailableSettings;
import org.hibernate.cfg.Configuration;
import org.hibernate.type.format.jackson.Jackson3JsonFormatMapper;

import dev.cairn.storage.db.internal.Entities;
import dev.cairn.storage.db.internal.KeepAliveSockets;

/**
 * The graph's PostgreSQL database: a connection pool, the schema brought up to date by
 * Flyway, and Hibernate's mapping validated against it (never generated from it).
 * Opening fails fast when the schema and the entities disagree.
 */
public final class Database implements AutoCloseable {

    // Hibernate and Flyway log through java.util.logging here; their start-up banners are
    // noise. Held so the loggers (and their levels) are not collected.
    private static final List<Logger> QUIET = List.of(quiet("org.hibernate"), quiet("org.flywaydb"));

    private final HikariDataSource dataSource;
    private final SessionFactory sessions;

    private Database(HikariDataSource dataSource, SessionFactory sessions) {
        this.dataSource = dataSource;
        this.sessions = sessions;
    }

    /** Connects, migrates the schema and validates the mapping. */
    public static Database open(DatabaseConfig config) {
        HikariDataSource dataSource = pool(config);
        try {
            Migrations.migrate(dataSource);
            return new Database(dataSource, validatedSessions(dataSource));
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
    }

    private static HikariDataSource pool(DatabaseConfig config) {
        HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(config.jdbcUrl());
        if (config.user() != null) {
            hikari.setUsername(config.user());
        }
        if (config.password() != null) {
            hikari.setPassword(config.password());
        }
        hikari.setMaximumPoolSize(config.poolSize());
        hikari.setConnectionTimeout(config.connectTimeout().toMillis());
        hikari.setMinimumIdle(1);
        hikari.setPoolName("cairn-graph");
        // Bulk inserts: let the driver rewrite batches into multi-row statements.
        hikari.addDataSourceProperty("reWriteBatchedInserts", "true");
        hikari.setConnectionInitSql(sessionSettings(config));
        if (config.plainLoopback()) {
            hikari.addDataSourceProperty("sslmode", "disable");
        }
        deadConnectionDetection(hikari, config.deadConnectionTimeout(), config.jdbcUrl());
        return new HikariDataSource(hikari);
    }

    /**
     * What every session sets first: the statements of Cairn that insert nodes count them in the statistics
     * themselves (graph.internal.NodeTallies), which keeps the trigger that counts other sessions' inserts
     * idle; and the planner's cost of a page read out of order, when the configuration has one.
     */
    private static String sessionSettings(DatabaseConfig config) {
        String tally = "SET cairn.node_tally = 'written'";
        return config.randomPageCost() == null
                ? tally
                : tally + "; SET random_page_cost = " + config.randomPageCost().doubleValue();
    }

    /**
     * Both ends of every connection give up a silent peer within {@code timeout}: the client by
     * keepalives on its socket ({@link KeepAliveSockets}), the server by the same keepalives and
     * {@code tcp_user_timeout} for the session, asked for in the startup packet (a URL with
     * {@code options} of its own keeps them, and the server's settings apply). Without the server's,
     * a worker that vanished mid-step would hold its process's row lock for hours; without the
     * client's, a worker cut off while it waits for an answer would wait as long.
     */
    private static void deadConnectionDetection(HikariConfig hikari, Duration timeout, String url) {
        if (timeout.isZero()) {
            return;
        }
        int total = (int) Math.max(3, timeout.toSeconds());
        int idle = Math.max(1, total / 2);
        int count = 3;
        int interval = Math.max(1, (total - idle) / count);
        // a URL's own socket factory (a Unix socket, where keepalives mean nothing) is the driver's choice
        if (!url.contains("socketFactory=")) {
            hikari.addDataSourceProperty("socketFactory", KeepAliveSockets.class.getName());
            hikari.addDataSourceProperty("socketFactoryArg", idle + "," + interval + "," + count);
        }
        if (!url.contains("options=")) {
            hikari.addDataSourceProperty(
                    "options",
                    "-c tcp_keepalives_idle=" + idle + " -c tcp_keepalives_interval=" + interval
                            + " -c tcp_keepalives_count=" + count + " -c tcp_user_timeout=" + total * 1000L);
        }
    }

    private static SessionFactory validatedSessions(DataSource dataSource) {
        Configuration configuration = new Configuration();
        Entities.MAPPED.forEach(configuration::addAnnotatedClass);
        configuration.getProperties().put(AvailableSettings.JAKARTA_NON_JTA_DATASOURCE, dataSource);
        configuration.setProperty(AvailableSettings.HBM2DDL_AUTO, "validate");
        // JSON columns read as JsonCodec reads them (integers as Long), so an entity's map
        // equals what was stored and what JDBC readers see
        configuration
                .getProperties()
                .put(AvailableSettings.JSON_FORMAT_MAPPER, new Jackson3JsonFormatMapper(JsonCodec.mapper()));
        configuration.setProperty(AvailableSettings.SHOW_SQL, "false");
        return configuration.buildSessionFactory();
    }

    private static Logger quiet(String name) {
        Logger logger = Logger.getLogger(name);
        logger.setLevel(Level.WARNING);
        return logger;
    }

    /** A pooled connection; the caller closes it. */
    public Connection connection() throws SQLException {
        return dataSource.getConnection();
    }

    /** The connection pool, for JDBC work outside Hibernate; connections go back to it when closed. */
    public DataSource dataSource() {
        return dataSource;
    }

    /** Hibernate sessions over the validated mapping. */
    public SessionFactory sessions() {
        return sessions;
    }

    @Override
    public void close() {
        sessions.close();
        dataSource.close();
    }
}
