package dev.cairn.engine.process;

import dev.cairn.storage.errors.InvalidInputException;

/** A named slot in a spec's inputs or outputs: a typed port or a namespace of ports. */
public sealed interface Port permits InputPort, OutputPort, PortNamespace {

    /** The name within its namespace; never contains '.' (which separates namespaces in paths). */
    String name();

    /** What the port is for, shown with the process's ports; empty when none was given. */
    String help();

    /**
     * Whether the port must have a value: an input at launch (unless it has a default), an
     * output when the process succeeds. A required input namespace must hold at least one value.
     */
    boolean required();

    /**
     * Returns {@code name} when it is a port name: letters, digits and single underscores,
     * starting with a letter and not ending with '_'. Anything else is refused with an
     * {@code InvalidInputException} saying so.
     */
    static String checkName(String name) {
        if (name == null || !name.matches("[A-Za-z]([A-Za-z0-9_]*[A-Za-z0-9])?") || name.contains("__")) {
            throw new InvalidInputException("port name '" + name + "' must be letters, digits and single underscores,"
                    + " starting with a letter and not ending with '_' ('__' joins namespaces in link labels)");
        }
        return name;
    }
}
