package dev.cairn.storage.graph.traversal;

import java.util.Locale;

/** Which way a traversal follows a link. */
public enum Direction {
    /** From the link's input to its output, e.g. from a data node to the calculation that used it. */
    FORWARD,
    /** From the link's output back to its input, e.g. from a data node to its creator. */
    BACKWARD;

    /** The lowercase word used in rule names such as {@code create_forward}. */
    public String word() {
        return name().toLowerCase(Locale.ROOT);
    }
}
