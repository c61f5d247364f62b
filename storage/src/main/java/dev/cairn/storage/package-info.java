/**
 * One installation's storage as a server uses it: {@link dev.cairn.storage.Storage} hands out the stores
 * of the provenance graph, its queries and its reads over one database and one object store, each owning
 * its transactions, so that a holder of it reaches the database only through them.
 *
 * <p>The subpackages are the parts: the node model and its stores ({@code graph}), queries ({@code query}),
 * reads shaped like a server's answers ({@code views}), archives, backups, hashing and the database itself
 * ({@code db}). The engine opens a {@code Storage} over its own database ({@code Engine.storage()}).
 */
package dev.cairn.storage;
