/**
 * Internal: the cache look-up. {@code CacheLookup} finds a valid source for a calculation
 * (finished, sealed, the same node and process type and hash, not invalidated) and says why a
 * launch found none; a {@code CacheHit} carries the source and the copies of its outputs.
 *
 * <p>Not for plugins or the server, which use the public packages; the engine's architecture tests
 * keep the plugin API off it and its types out of every public signature not marked
 * {@code @Internal}. It depends on the plugin API and the graph, never on the runtime or the
 * broker; the runtime and the launcher use it.
 */
package dev.cairn.engine.internal.caching;
