/**
 * Running the server: health indicators for PostgreSQL, the broker and the object store (the
 * readiness group holds them; liveness holds none), the Prometheus meters of the engine and of its
 * connection pool, bound here to Micrometer from the engine's plain counters and listeners, and what
 * a graceful stop needs.
 */
package dev.cairn.api.ops;
