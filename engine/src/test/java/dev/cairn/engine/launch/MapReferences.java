package dev.cairn.engine.launch;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.computers.Computer;

/** References resolved from maps, for tests without a database. */
final class MapReferences implements ReferenceResolver {

    private final Map<UUID, Node> nodes = new HashMap<>();
    private final Map<UUID, Computer> computers = new HashMap<>();

    /** Makes {@code node} resolvable by its uuid; returns it. */
    <T extends Node> T add(T node) {
        nodes.put(node.uuid(), node);
        return node;
    }

    Computer addComputer(long id, String label) {
        Computer c = new Computer(id, UUID.randomUUID(), label, "localhost", "", "core.local", "core.direct", Map.of());
        computers.put(c.uuid(), c);
        return c;
    }

    @Override
    public Optional<Node> node(UUID uuid) {
        return Optional.ofNullable(nodes.get(uuid));
    }

    @Override
    public Optional<Computer> computer(UUID uuid) {
        return Optional.ofNullable(computers.get(uuid));
    }

    @Override
    public Optional<Computer> computerLabelled(String label) {
        return computers.values().stream().filter(c -> c.label().equals(label)).findFirst();
    }
}
