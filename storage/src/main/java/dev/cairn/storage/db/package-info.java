/**
 * The graph's PostgreSQL database: {@code Database} (connection pool, Flyway migrations,
 * Hibernate's mapping validated against the schema), its configuration, whole-database
 * administration, transactions, JSON text for attribute values, and the socket factory a JDBC URL
 * names to reach a database on the same host through its Unix socket ({@code UnixSocketFactory}).
 * Its entities and the JDBC tools the layers above share (COPY, cursors, temporary id tables) are
 * storage's own, in {@code db.internal}.
 *
 * <p>It knows tables and JSON, not the graph's rules or its queries: it depends on the JDK, the
 * PostgreSQL driver, HikariCP, Flyway, Hibernate and Jackson, and an architecture test keeps it
 * below the graph, the hash and the query packages. The graph, the query builder and the engine
 * (whose steps commit on its connections) build on it.
 */
package dev.cairn.storage.db;
