package dev.cairn.engine.launch;

import java.util.Optional;
import java.util.UUID;

import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerStore;

/**
 * Finds what a JSON launch names: stored nodes by uuid, computers by uuid or label. Only
 * public identifiers: database ids differ between databases and say nothing to a client.
 */
public interface ReferenceResolver {

    /** The stored node with this uuid, or empty when there is none. */
    Optional<Node> node(UUID uuid);

    /** The computer with this uuid, or empty. */
    Optional<Computer> computer(UUID uuid);

    /** The computer with this label, or empty. */
    Optional<Computer> computerLabelled(String label);

    /** Resolves through the provenance graph and the computer table. */
    static ReferenceResolver of(GraphStore graph, ComputerStore computers) {
        return new GraphReferences(graph, computers);
    }
}
