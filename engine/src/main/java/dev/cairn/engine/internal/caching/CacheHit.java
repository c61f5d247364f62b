package dev.cairn.engine.internal.caching;

import java.util.Map;

import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.ProcessNode;

/** A finished calculation whose outputs a new one takes instead of running: copies by output label. */
public record CacheHit(ProcessNode source, Map<String, Data> copies) {

    public CacheHit {
        copies = Map.copyOf(copies);
    }
}
