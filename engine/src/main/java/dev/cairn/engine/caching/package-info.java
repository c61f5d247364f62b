/**
 * Which process types look for a cached result before they run:
 * {@link dev.cairn.engine.caching.CachingPolicy}, patterns of entry points enabled or disabled,
 * given to the engine in its configuration.
 *
 * <p>A plain value with no dependency but the error families. The look-up itself (same hash, a
 * valid source) is internal, in {@code engine.internal.caching}, and the runtime applies the
 * policy.
 */
package dev.cairn.engine.caching;
