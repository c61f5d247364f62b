package dev.cairn.engine.internal.runtime;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.cairn.engine.process.ChildProcess;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.WorkflowNode;

/**
 * What a step did, kept in memory until the step commits it in one transaction: new nodes
 * with their links, RETURN links to stored data, launched children, awaited children and
 * report lines. A step that fails drops it all.
 */
final class StepEffects {

    record ReturnLink(WorkflowNode workflow, String label, Data data) {}

    record Report(Node node, String message) {}

    record Awaited(ChildProcess child, String key, boolean append) {}

    private final Set<Node> newNodes = Collections.newSetFromMap(new IdentityHashMap<>());
    private final List<Node> ordered = new ArrayList<>();
    final List<ReturnLink> returnLinks = new ArrayList<>();
    final List<ChildProcess> children = new ArrayList<>();
    /** Children that took their outputs from the cache when submitted (ended at once), with those outputs. */
    final Map<ChildProcess, Map<String, Data>> cachedChildren = new IdentityHashMap<>();

    final List<Awaited> awaited = new ArrayList<>();
    final List<Report> reports = new ArrayList<>();
    /** The outputs the stepping process registered in this step, by port path. */
    final Map<String, Data> outputs = new LinkedHashMap<>();

    /** Adds a node to store (once), with any unstored nodes it links from. */
    void addNode(Node node) {
        if (node.isStored() || !newNodes.add(node)) {
            return;
        }
        ordered.add(node);
        node.pendingIncoming().forEach(link -> addNode(link.source()));
    }

    boolean isNew(Node node) {
        return newNodes.contains(node);
    }

    List<Node> nodes() {
        return ordered;
    }

    /** Awaited children that are still to end (those taken from the cache have ended). */
    int running() {
        return (int) awaited.stream()
                .filter(a -> !cachedChildren.containsKey(a.child()))
                .count();
    }

    boolean isAwaited(ChildProcess child) {
        return awaited.stream().anyMatch(a -> a.child() == child);
    }
}
