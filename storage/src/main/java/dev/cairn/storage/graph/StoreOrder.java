package dev.cairn.storage.graph;

import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * Orders a batch of unstored nodes so that every link's source comes before its target,
 * and refuses a batch whose links form a cycle (which would break the data provenance),
 * naming the nodes and links of the cycle.
 */
final class StoreOrder {

    private StoreOrder() {}

    static List<Node> of(Collection<? extends Node> batch) {
        Map<Node, Integer> state = new IdentityHashMap<>(); // 1 visiting, 2 done
        for (Node n : batch) {
            if (n.isStored()) {
                throw new ModificationNotAllowedException(
                        n.describe() + " is stored already; a batch holds new nodes only");
            }
            if (state.put(n, 0) != null) {
                throw new InvalidInputException(n.describe() + " appears twice in the batch");
            }
        }
        List<Node> order = new ArrayList<>(batch.size());
        for (Node n : batch) {
            visit(n, state, order, new ArrayList<>(), new ArrayList<>());
        }
        return order;
    }

    /** Depth first along incoming links; {@code nodes[i]} takes {@code links[i]} from {@code nodes[i+1]}. */
    private static void visit(
            Node node, Map<Node, Integer> state, List<Node> order, List<Node> nodes, List<PendingLink> links) {
        Integer s = state.get(node);
        if (s == null || s == 2) {
            return; // stored already, or outside the batch (checked by the store), or done
        }
        if (s == 1) {
            throw cycle(node, nodes, links);
        }
        state.put(node, 1);
        nodes.add(node);
        for (PendingLink link : node.pendingIncoming()) {
            links.add(link);
            visit(link.source(), state, order, nodes, links);
            links.removeLast();
        }
        nodes.removeLast();
        state.put(node, 2);
        order.add(node);
    }

    private static ProvenanceCycleException cycle(Node start, List<Node> nodes, List<PendingLink> links) {
        StringBuilder message = new StringBuilder("the batch's links form a cycle, which provenance cannot have: ");
        int from = nodes.indexOf(start);
        for (int i = nodes.size() - 1; i >= from; i--) {
            PendingLink link = links.get(i);
            message.append(link.source().describe())
                    .append(" -")
                    .append(link.type())
                    .append(" '")
                    .append(link.label())
                    .append("'-> ");
        }
        message.append(start.describe());
        return new ProvenanceCycleException(message.toString());
    }
}
