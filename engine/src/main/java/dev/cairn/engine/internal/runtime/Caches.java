package dev.cairn.engine.internal.runtime;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.internal.caching.CacheHit;
import dev.cairn.engine.internal.caching.CacheLookup;
import dev.cairn.engine.internal.calcjob.ComputerAccess;
import dev.cairn.engine.internal.calcjob.Computers;
import dev.cairn.engine.process.CalcFunction;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.process.ProcessSpec;
import dev.cairn.engine.transport.Transport;
import dev.cairn.storage.graph.CachingExtras;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.RemoteData;
import dev.cairn.storage.graph.computers.Computer;

/**
 * Caching within a step: before a calculation runs, look for a valid source with its hash;
 * on a hit, the calculation takes copies of the source's outputs (CREATE links, as if it had
 * run), its exit status, and the extra naming the source. Workflows are never cached, only
 * their calculations.
 */
final class Caches {

    private static final Logger LOG = System.getLogger(Caches.class.getName());

    private final CachingPolicy policy;
    private final GraphStore graph;
    private final Computers computers;
    private final ComputerAccess access;
    private final LongAdder hits;

    /** @param hits counts every hit taken */
    Caches(CachingPolicy policy, GraphStore graph, Computers computers, ComputerAccess access, LongAdder hits) {
        this.hits = hits;
        this.policy = policy;
        this.graph = graph;
        this.computers = computers;
        this.access = access;
    }

    /** Whether a launch of {@code entryPoint} looks in the cache; {@code override} (per launch) wins when not null. */
    boolean isEnabled(String entryPoint, Boolean override) {
        return policy.isEnabled(entryPoint, override);
    }

    /**
     * A hit for {@code node}, a launch of {@code definition}; {@code hash} null when the
     * node is not stored yet (it is computed from its inputs then).
     */
    Optional<CacheHit> lookup(
            GraphTransaction g, ProcessDefinition definition, ProcessNode node, String hash, Boolean override) {
        if (!(definition instanceof CalcFunction || definition instanceof CalcJobDefinition)) {
            return Optional.empty();
        }
        return lookup(
                g,
                definition.entryPoint(),
                definition.spec(),
                definition instanceof CalcJobDefinition,
                node,
                hash,
                override);
    }

    /** A hit for {@code node}, a calculation of the process type {@code entryPoint}; as above. */
    Optional<CacheHit> lookup(
            GraphTransaction g,
            String entryPoint,
            ProcessSpec spec,
            boolean job,
            ProcessNode node,
            String hash,
            Boolean override) {
        if (!isEnabled(entryPoint, override)) {
            return Optional.empty();
        }
        String h = hash != null ? hash : graph.hashOf(node);
        return CacheLookup.find(g, node, h, spec, job ? hit -> workdirExists(g, hit) : hit -> true);
    }

    /**
     * A calculation job is a source only while its work directory exists: the copy of its
     * {@code remote_folder} would point at nothing, and a job restarting from it would fail.
     * A source whose directory is gone is marked invalid, so no one checks it again; one whose
     * computer cannot be reached now is only passed over.
     */
    private boolean workdirExists(GraphTransaction g, CacheHit hit) {
        ProcessNode source = hit.source();
        if (!(hit.copies().get("remote_folder") instanceof RemoteData remote)) {
            return true;
        }
        boolean exists;
        try {
            Computer computer = computers.get(remote.computerId());
            try (Transport transport = access.open(computer, computers.settings(computer.id()))) {
                exists = transport.exists(remote.remotePath());
            }
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "passing over cache source {0}: its work directory could not be checked: {1}",
                    source.describe(),
                    e.getMessage());
            return false;
        }
        if (!exists) {
            g.mergeExtras(
                    source,
                    Map.of(
                            CachingExtras.VALID_CACHE,
                            false,
                            CachingExtras.INVALID_REASON,
                            "its work directory " + remote.remotePath() + " no longer exists"));
        }
        return exists;
    }

    /** Gives {@code node} the hit's outputs and exit status, and names the source; returns the outputs. */
    Map<String, Data> take(GraphTransaction g, ProcessNode node, CacheHit hit, StepEffects effects) {
        Map<String, Data> outputs = new LinkedHashMap<>();
        hit.copies().forEach((path, copy) -> {
            FunctionRunner.link(node, path, copy, effects);
            outputs.put(path, copy);
        });
        hits.increment();
        node.setExitStatus(hit.source().exitStatus());
        if (hit.source().exitMessage() != null) {
            node.setExitMessage(hit.source().exitMessage());
        }
        Map<String, Object> extras = new LinkedHashMap<>(node.extras());
        extras.put(CachingExtras.CACHED_FROM, hit.source().uuid().toString());
        if (node.isStored()) {
            g.mergeExtras(node, extras);
        } else {
            node.setExtras(extras);
        }
        return outputs;
    }
}
