package dev.cairn.engine.process;

import dev.cairn.errors.InvalidInputException;

/** A named slot in a spec's inputs or outputs: a typed port or a namespace of ports. */
public sealed interface Port permits InputPort, OutputPort, PortNamespace {

    /** The name within its namespace; never contains '.' (which separates namespaces in paths). */
    String name();

    String help();

    boolean required();

    static String checkName(String name) {
        if (name == null || !name.matches("[A-Za-z]([A-Za-z0-9_]*[A-Za-z0-9])?") || name.contains("__")) {
            throw new InvalidInputException("port name '" + name + "' must be letters, digits and single underscores,"
                    + " starting with a letter and not ending with '_' ('__' joins namespaces in link labels)");
        }
        return name;
    }
}
