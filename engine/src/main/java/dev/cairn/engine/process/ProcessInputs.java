package dev.cairn.engine.process;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.cairn.storage.graph.Node;

/** A running process's validated inputs, read by typed port. */
public final class ProcessInputs {

    private final Map<String, Node> byPath;

    /** Inputs by port path, as the engine hands them to a process once validated; tests may make them directly. */
    public ProcessInputs(Map<String, Node> byPath) {
        this.byPath = Collections.unmodifiableMap(new LinkedHashMap<>(byPath));
    }

    /** The value of a port; null when an optional port was not given. */
    public <T extends Node> T get(InputPort<T> port) {
        Node value = byPath.get(port.path());
        if (value == null && port.required()) {
            throw new IllegalStateException("required input '" + port.path() + "' has no value");
        }
        return port.type().cast(value);
    }

    /** The value at a port path, for dynamic namespaces and exposed ports; null when not given. */
    public Node get(String path) {
        return byPath.get(path);
    }

    /** The values under a namespace, keyed by path within it. */
    public Map<String, Node> namespace(String path) {
        Map<String, Node> inside = new LinkedHashMap<>();
        String prefix = path + ".";
        byPath.forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                inside.put(k.substring(prefix.length()), v);
            }
        });
        return inside;
    }

    /** Every value by port path, defaults included. */
    public Map<String, Node> asMap() {
        return byPath;
    }
}
