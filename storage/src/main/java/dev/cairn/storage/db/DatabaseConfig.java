package dev.cairn.storage.db;

import java.time.Duration;
import java.util.Objects;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * Where the graph's PostgreSQL database is and how many connections to keep.
 *
 * @param jdbcUrl  a {@code jdbc:postgresql:} URL; user and password may be in it
 * @param user     the user, or {@code null} when the URL names it
 * @param password the password, or {@code null}
 * @param poolSize connections kept open (at least 2: a migration takes two)
 * @param connectTimeout how long a caller waits for a connection of the pool (a free one, or a new one
 *                       when the database is away) before the pool gives up: the time an outage takes to
 *                       be noticed, and to be answered
 * @param deadConnectionTimeout how long either end of a connection bears a silent peer: PostgreSQL ends the
 *                       session (rolling back its transaction, freeing its locks) of a client that vanished
 *                       within it, and a client notices a server it cannot reach within it, by TCP keepalives
 *                       on both sides and PostgreSQL's {@code tcp_user_timeout}; zero leaves both to the
 *                       server's settings and the system's defaults (two hours and more)
 * @param randomPageCost PostgreSQL's planner cost of reading a page out of order, set for Cairn's sessions
 *                       ({@code random_page_cost}); {@code null} keeps the server's. PostgreSQL's default of 4
 *                       prices such a page as a read from a spinning disk, which makes it prefer bitmap scans
 *                       that read thousands of index entries to spare a few heap pages; a graph database is held
 *                       in memory or on SSD, where 1.1 (the usual advice for SSD) prices it close to a page read
 *                       in order
 */
public record DatabaseConfig(
        String jdbcUrl,
        String user,
        String password,
        int poolSize,
        Duration connectTimeout,
        Duration deadConnectionTimeout,
        Double randomPageCost) {

    /** The pool's default wait for a connection (HikariCP's). */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(30);

    /** How long a silent peer is borne by default. */
    public static final Duration DEFAULT_DEAD_CONNECTION_TIMEOUT = Duration.ofSeconds(30);

    /** The planner's cost of a page read out of order for Cairn's sessions by default: storage in memory or on SSD. */
    public static final double DEFAULT_RANDOM_PAGE_COST = 1.1;

    public DatabaseConfig {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
            throw new InvalidInputException("not a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db): " + jdbcUrl);
        }
        if (poolSize < 2) {
            throw new InvalidInputException(
                    "poolSize must be at least 2 (a schema migration takes two connections), was " + poolSize);
        }
        Objects.requireNonNull(connectTimeout, "connectTimeout");
        if (connectTimeout.toMillis() < 250) {
            throw new InvalidInputException(
                    "connectTimeout must be at least 250 ms (the pool's least), was " + connectTimeout);
        }
        Objects.requireNonNull(deadConnectionTimeout, "deadConnectionTimeout");
        if (!deadConnectionTimeout.isZero() && deadConnectionTimeout.toSeconds() < 3) {
            throw new InvalidInputException("deadConnectionTimeout must be zero (off) or at least 3 s (a keepalive"
                    + " and three probes of a second each), was " + deadConnectionTimeout);
        }
        if (randomPageCost != null && !(randomPageCost > 0 && randomPageCost < 1000)) {
            throw new InvalidInputException("randomPageCost must be above 0 and below 1000 (PostgreSQL's own default"
                    + " is 4, a page read in order costs 1), was " + randomPageCost);
        }
    }

    /** With the default wait for a connection ({@link #DEFAULT_CONNECT_TIMEOUT}) and for a silent peer. */
    public DatabaseConfig(String jdbcUrl, String user, String password, int poolSize) {
        this(
                jdbcUrl,
                user,
                password,
                poolSize,
                DEFAULT_CONNECT_TIMEOUT,
                DEFAULT_DEAD_CONNECTION_TIMEOUT,
                DEFAULT_RANDOM_PAGE_COST);
    }

    /** A pool of 8 connections to the database at {@code jdbcUrl}. */
    public static DatabaseConfig of(String jdbcUrl) {
        return new DatabaseConfig(jdbcUrl, null, null, 8);
    }

    /** This configuration with a pool of {@code size} connections. */
    public DatabaseConfig withPoolSize(int size) {
        return new DatabaseConfig(jdbcUrl, user, password, size, connectTimeout, deadConnectionTimeout, randomPageCost);
    }

    /** This configuration waiting at most {@code timeout} for a connection. */
    public DatabaseConfig withConnectTimeout(Duration timeout) {
        return new DatabaseConfig(jdbcUrl, user, password, poolSize, timeout, deadConnectionTimeout, randomPageCost);
    }

    /** This configuration taking a connection as dead when it has not answered for {@code timeout}. */
    public DatabaseConfig withDeadConnectionTimeout(Duration timeout) {
        return new DatabaseConfig(jdbcUrl, user, password, poolSize, connectTimeout, timeout, randomPageCost);
    }

    /** This configuration with the planner's {@code random_page_cost} for its sessions; {@code null}: the server's. */
    public DatabaseConfig withRandomPageCost(Double cost) {
        return new DatabaseConfig(jdbcUrl, user, password, poolSize, connectTimeout, deadConnectionTimeout, cost);
    }

    /**
     * True when the URL reaches PostgreSQL on this machine and says nothing about TLS: such a
     * connection is made without it (traffic on the loopback never leaves the host, and
     * encrypting it costs the workers and the server CPU on every statement). A URL with its
     * own {@code sslmode} is used as it is.
     */
    public boolean plainLoopback() {
        if (jdbcUrl.contains("sslmode=") || jdbcUrl.contains("ssl=")) {
            return false;
        }
        String rest = jdbcUrl.substring("jdbc:postgresql:".length());
        if (!rest.startsWith("//")) {
            return true; // jdbc:postgresql:db is localhost
        }
        String authority = rest.substring(2).split("[/?]", 2)[0];
        String host = authority.startsWith("[")
                ? authority.substring(1, authority.indexOf(']'))
                : authority.split(":", 2)[0];
        return host.isEmpty() || host.equals("localhost") || host.startsWith("127.") || host.equals("::1");
    }
}
