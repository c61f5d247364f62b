package dev.cairn.storage.db;

import java.util.Objects;

/**
 * Where the graph's PostgreSQL database is and how many connections to keep.
 *
 * @param jdbcUrl  a {@code jdbc:postgresql:} URL; user and password may be in it
 * @param user     the user, or {@code null} when the URL names it
 * @param password the password, or {@code null}
 * @param poolSize connections kept open (at least 2: a migration takes two)
 */
public record DatabaseConfig(String jdbcUrl, String user, String password, int poolSize) {

    public DatabaseConfig {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        if (!jdbcUrl.startsWith("jdbc:postgresql:"))
            throw new IllegalArgumentException("not a PostgreSQL JDBC URL (jdbc:postgresql://host:port/db): " + jdbcUrl);
        if (poolSize < 2)
            throw new IllegalArgumentException("poolSize must be at least 2 (a schema migration takes two "
                + "connections), was " + poolSize);
    }

    /** A pool of 8 connections to the database at {@code jdbcUrl}. */
    public static DatabaseConfig of(String jdbcUrl) {
        return new DatabaseConfig(jdbcUrl, null, null, 8);
    }

    public DatabaseConfig withPoolSize(int size) {
        return new DatabaseConfig(jdbcUrl, user, password, size);
    }
}
