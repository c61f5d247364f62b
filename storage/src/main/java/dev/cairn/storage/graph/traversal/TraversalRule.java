package dev.cairn.storage.graph.traversal;

import java.util.Objects;

import dev.cairn.storage.graph.LinkType;

/**
 * Whether a traversal follows links of one type in one direction, and whether a caller may
 * change that.
 *
 * @param enabled    the traversal follows these links
 * @param toggleable a caller may switch {@code enabled}; the other rules are what keeps the
 *                   rule set's promise (a deletion leaves no output without its inputs)
 */
public record TraversalRule(LinkType linkType, Direction direction, boolean enabled, boolean toggleable) {

    public TraversalRule {
        Objects.requireNonNull(linkType, "linkType");
        Objects.requireNonNull(direction, "direction");
    }

    /** The rule's name, e.g. {@code input_calc_forward}. */
    public String name() {
        return nameOf(linkType, direction);
    }

    static String nameOf(LinkType linkType, Direction direction) {
        return linkType.dbValue() + "_" + direction.word();
    }

    TraversalRule withEnabled(boolean value) {
        return new TraversalRule(linkType, direction, value, toggleable);
    }
}
