package dev.cairn.engine.runtime;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import dev.cairn.engine.caching.CacheHit;
import dev.cairn.engine.caching.CacheLookup;
import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.process.CalcFunction;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.ProcessNode;

/**
 * Caching within a step: before a calculation runs, look for a valid source with its hash;
 * on a hit, the calculation takes copies of the source's outputs (CREATE links, as if it had
 * run), its exit status, and the extra naming the source. Workflows are never cached, only
 * their calculations.
 */
final class Caches {

    private final CachingPolicy policy;
    private final GraphStore graph;

    Caches(CachingPolicy policy, GraphStore graph) {
        this.policy = policy;
        this.graph = graph;
    }

    /**
     * A hit for {@code node}, a launch of {@code definition}; {@code hash} null when the
     * node is not stored yet (it is computed from its inputs then).
     */
    Optional<CacheHit> lookup(GraphTransaction g, ProcessDefinition definition, ProcessNode node, String hash,
                              Boolean override) {
        if (!(definition instanceof CalcFunction || definition instanceof CalcJobDefinition)
            || !policy.isEnabled(definition.entryPoint(), override))
            return Optional.empty();
        String h = hash != null ? hash : graph.hashOf(node);
        return CacheLookup.find(g, node, h, definition.spec());
    }

    /** Gives {@code node} the hit's outputs and exit status, and names the source; returns the outputs. */
    Map<String, Data> take(GraphTransaction g, ProcessNode node, CacheHit hit, StepEffects effects) {
        Map<String, Data> outputs = new LinkedHashMap<>();
        hit.copies().forEach((path, copy) -> {
            FunctionRunner.link(node, path, copy, effects);
            outputs.put(path, copy);
        });
        node.setExitStatus(hit.source().exitStatus());
        if (hit.source().exitMessage() != null)
            node.setExitMessage(hit.source().exitMessage());
        Map<String, Object> extras = new LinkedHashMap<>(node.extras());
        extras.put(CacheHit.CACHED_FROM, hit.source().uuid().toString());
        if (node.isStored())
            g.mergeExtras(node, extras);
        else
            node.setExtras(extras);
        return outputs;
    }
}
