package dev.cairn.storage.graph;

/**
 * The extras by which a calculation takes part in caching, named once for the engine that writes them and
 * the views, pages and tools that read them (AiiDA keeps the same facts in {@code _aiida_cached_from} and
 * {@code _aiida_valid_cache}).
 */
public final class CachingExtras {

    /** The uuid of the calculation whose outputs a node made from the cache took. */
    public static final String CACHED_FROM = "_cairn_cached_from";

    /** Set to false, keeps a calculation from serving as a cache source; absent means true. */
    public static final String VALID_CACHE = "_cairn_valid_cache";

    /** Why the engine marked a calculation invalid as a cache source. */
    public static final String INVALID_REASON = "_cairn_invalid_cache_reason";

    private CachingExtras() {}
}
