package dev.cairn.engine.process;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.Node;

/**
 * A namespace of ports. A dynamic namespace also takes ports not declared, each value of
 * {@code dynamicType}; its validator sees the whole namespace, for rules across fields.
 * Namespaces are made by the spec's builder as dotted paths are declared; shape one with
 * {@link ProcessSpec.Builder#inputNamespace} and the {@code as…} and {@code with…} methods here.
 *
 * @param path        the dotted path from the spec's root; empty for the root itself
 * @param ports       the ports declared in it, by name
 * @param dynamic     it also takes ports that are not declared
 * @param dynamicType the node class of those undeclared ports
 * @param required    a launch must give at least one value inside it
 * @param validator   checks the namespace's values together (keyed by path within it) when it holds any:
 *                    null when they are fine, else what is wrong
 * @param help        what the namespace is for
 */
public record PortNamespace(
        String path,
        Map<String, Port> ports,
        boolean dynamic,
        Class<? extends Node> dynamicType,
        boolean required,
        Function<Map<String, Node>, String> validator,
        String help)
        implements Port {

    /** Copies the ports; a dynamic namespace without a type takes any node. */
    public PortNamespace {
        Objects.requireNonNull(path, "path");
        ports = Collections.unmodifiableMap(new LinkedHashMap<>(ports));
        help = help == null ? "" : help;
        if (dynamic && dynamicType == null) {
            dynamicType = Node.class;
        }
    }

    static PortNamespace root() {
        return new PortNamespace("", Map.of(), false, null, false, null, "");
    }

    @Override
    public String name() {
        return path.substring(path.lastIndexOf('.') + 1);
    }

    PortNamespace with(Port port) {
        Map<String, Port> copy = new LinkedHashMap<>(ports);
        if (copy.putIfAbsent(port.name(), port) != null) {
            throw new InvalidInputException("port '" + qualified(port.name()) + "' is declared twice");
        }
        return new PortNamespace(path, copy, dynamic, dynamicType, required, validator, help);
    }

    PortNamespace replacing(Port port) {
        Map<String, Port> copy = new LinkedHashMap<>(ports);
        copy.put(port.name(), port);
        return new PortNamespace(path, copy, dynamic, dynamicType, required, validator, help);
    }

    /** This namespace made dynamic, taking undeclared ports of {@code type}. */
    public PortNamespace asDynamic(Class<? extends Node> type) {
        return new PortNamespace(path, ports, true, type, required, validator, help);
    }

    /** This namespace, required (at least one value at launch) or not. */
    public PortNamespace asRequired(boolean isRequired) {
        return new PortNamespace(path, ports, dynamic, dynamicType, isRequired, validator, help);
    }

    /** This namespace with a check of its values together, run after each port's own (see {@code validator}). */
    public PortNamespace withValidator(Function<Map<String, Node>, String> check) {
        return new PortNamespace(path, ports, dynamic, dynamicType, required, check, help);
    }

    /** This namespace with a help text, shown with the process's ports and in its schemas. */
    public PortNamespace withHelp(String text) {
        return new PortNamespace(path, ports, dynamic, dynamicType, required, validator, text);
    }

    String qualified(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }
}
