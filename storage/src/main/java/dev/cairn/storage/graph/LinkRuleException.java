package dev.cairn.storage.graph;

import dev.cairn.storage.errors.ConflictException;

/**
 * A link breaks a rule of its type: wrong kinds of node, a second link where one is
 * allowed, a duplicate label, a label that is not an identifier, or a sealed node.
 */
public final class LinkRuleException extends ConflictException {

    /** A link the graph's rules refuse, as {@code message} says. */
    public LinkRuleException(String message) {
        super(message);
    }

    /** A link the graph's rules refuse, as {@code message} says, found by {@code cause}. */
    public LinkRuleException(String message, Throwable cause) {
        super(message, cause);
    }
}
