package dev.cairn.engine.internal.caching;

import java.util.Map;

import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.ProcessNode;

/** A finished calculation whose outputs a new one takes instead of running: copies by output label. */
public record CacheHit(ProcessNode source, Map<String, Data> copies) {

    /** The extra that names the source of a node created from the cache. */
    public static final String CACHED_FROM = "_cairn_cached_from";
    /** The extra that, set to false, keeps a node from serving as a cache source. */
    public static final String VALID_CACHE = "_cairn_valid_cache";
    /** Extra saying why the engine marked a node invalid as a cache source. */
    public static final String INVALID_REASON = "_cairn_invalid_cache_reason";

    public CacheHit {
        copies = Map.copyOf(copies);
    }
}
