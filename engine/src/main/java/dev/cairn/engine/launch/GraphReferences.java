package dev.cairn.engine.launch;

import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.NodeNotFoundException;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerStore;

/** References resolved in the database: nodes through the graph, computers through their store. */
record GraphReferences(GraphStore graph, ComputerStore computers) implements ReferenceResolver {

    GraphReferences {
        Objects.requireNonNull(graph, "graph");
        Objects.requireNonNull(computers, "computers");
    }

    @Override
    public Optional<Node> node(UUID uuid) {
        try {
            return Optional.of(graph.load(uuid));
        } catch (NodeNotFoundException e) {
            return Optional.empty();
        }
    }

    @Override
    public Optional<Computer> computer(UUID uuid) {
        return computers.findByUuid(uuid);
    }

    @Override
    public Optional<Computer> computerLabelled(String label) {
        return computers.findByLabel(label);
    }
}
