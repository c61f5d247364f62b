/**
 * The database layer's own parts that the rest of storage builds on, and nothing outside storage
 * may use (an architecture test): the Hibernate entities, a class per mapped table, which
 * {@code Database} registers ({@link dev.cairn.storage.db.internal.Entities}) and Hibernate validates
 * against the migrations at start-up, so a mapping that drifts fails fast; and the JDBC tools the
 * graph, the traversals and the archives share: COPY rows and pipes, server-side cursors, temporary
 * id tables, the socket factory that turns on TCP keepalives, and the socket behind
 * {@link dev.cairn.storage.db.UnixSocketFactory} for a database on the same host.
 *
 * <p>The stores of users, computers and comments read and write through their entities; nodes,
 * links and logs are written through JDBC and COPY instead, for speed, and their entities (with
 * those of groups and settings) are package-private: they exist for the schema's validation only.
 */
package dev.cairn.storage.db.internal;
