package dev.cairn.storage.graph.traversal;

import static dev.cairn.storage.graph.LinkType.CALL_CALC;
import static dev.cairn.storage.graph.LinkType.CALL_WORK;
import static dev.cairn.storage.graph.LinkType.CREATE;
import static dev.cairn.storage.graph.LinkType.INPUT_CALC;
import static dev.cairn.storage.graph.LinkType.INPUT_WORK;
import static dev.cairn.storage.graph.LinkType.RETURN;
import static dev.cairn.storage.graph.traversal.Direction.BACKWARD;
import static dev.cairn.storage.graph.traversal.Direction.FORWARD;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.LinkType;

/**
 * A rule set for walking the provenance graph: for each of the twelve (link type, direction)
 * pairs, whether to follow it and whether a caller may change that. Immutable; {@code with}
 * returns a changed copy.
 * <ul>
 *   <li>{@link #DEFAULT}: follows nothing, every rule toggleable (a blank to build on).</li>
 *   <li>{@link #DELETE}: what must go with a node so that nothing left behind misses part of
 *       its provenance: the processes that used it and their outputs, a data node's
 *       creator, the callers of a process.</li>
 *   <li>{@link #EXPORT}: what must travel with a node so that the archive holds its
 *       provenance: inputs of a process, created outputs, what a workflow called or returned.</li>
 * </ul>
 */
public final class TraversalRules {

    public static final TraversalRules DEFAULT = new TraversalRules(
            "DEFAULT",
            List.of(
                    toggle(INPUT_CALC, FORWARD, false), toggle(INPUT_CALC, BACKWARD, false),
                    toggle(CREATE, FORWARD, false), toggle(CREATE, BACKWARD, false),
                    toggle(RETURN, FORWARD, false), toggle(RETURN, BACKWARD, false),
                    toggle(INPUT_WORK, FORWARD, false), toggle(INPUT_WORK, BACKWARD, false),
                    toggle(CALL_CALC, FORWARD, false), toggle(CALL_CALC, BACKWARD, false),
                    toggle(CALL_WORK, FORWARD, false), toggle(CALL_WORK, BACKWARD, false)));

    public static final TraversalRules DELETE = new TraversalRules(
            "DELETE",
            List.of(
                    fixed(INPUT_CALC, FORWARD, true), fixed(INPUT_CALC, BACKWARD, false),
                    toggle(CREATE, FORWARD, true), fixed(CREATE, BACKWARD, true),
                    fixed(RETURN, FORWARD, false), fixed(RETURN, BACKWARD, true),
                    fixed(INPUT_WORK, FORWARD, true), fixed(INPUT_WORK, BACKWARD, false),
                    toggle(CALL_CALC, FORWARD, true), fixed(CALL_CALC, BACKWARD, true),
                    toggle(CALL_WORK, FORWARD, true), fixed(CALL_WORK, BACKWARD, true)));

    public static final TraversalRules EXPORT = new TraversalRules(
            "EXPORT",
            List.of(
                    toggle(INPUT_CALC, FORWARD, false), fixed(INPUT_CALC, BACKWARD, true),
                    fixed(CREATE, FORWARD, true), toggle(CREATE, BACKWARD, true),
                    fixed(RETURN, FORWARD, true), toggle(RETURN, BACKWARD, false),
                    toggle(INPUT_WORK, FORWARD, false), fixed(INPUT_WORK, BACKWARD, true),
                    fixed(CALL_CALC, FORWARD, true), toggle(CALL_CALC, BACKWARD, true),
                    fixed(CALL_WORK, FORWARD, true), toggle(CALL_WORK, BACKWARD, true)));

    private final String name;
    // One rule per (link type, direction), at index(linkType, direction).
    private final List<TraversalRule> rules;

    private TraversalRules(String name, List<TraversalRule> given) {
        TraversalRule[] placed = new TraversalRule[LinkType.values().length * Direction.values().length];
        for (TraversalRule r : given) {
            if (placed[index(r.linkType(), r.direction())] != null) {
                throw new IllegalStateException(name + " has two rules " + r.name());
            }
            placed[index(r.linkType(), r.direction())] = r;
        }
        if (given.size() != placed.length) {
            throw new IllegalStateException(
                    name + " has " + given.size() + " rules, not one per link type and direction");
        }
        this.name = name;
        this.rules = List.of(placed);
    }

    private static TraversalRule fixed(LinkType type, Direction direction, boolean enabled) {
        return new TraversalRule(type, direction, enabled, false);
    }

    private static TraversalRule toggle(LinkType type, Direction direction, boolean enabled) {
        return new TraversalRule(type, direction, enabled, true);
    }

    private static int index(LinkType type, Direction direction) {
        return type.ordinal() * 2 + direction.ordinal();
    }

    /** The name of the rule set this was derived from: DEFAULT, DELETE or EXPORT. */
    public String name() {
        return name;
    }

    /** All twelve rules, in the order of {@link LinkType} then {@link Direction}. */
    public List<TraversalRule> rules() {
        return rules;
    }

    /** The rule for following links of {@code type} in {@code direction}. */
    public TraversalRule rule(LinkType type, Direction direction) {
        return rules.get(index(type, direction));
    }

    /** The rule with a name such as {@code create_forward}. */
    public TraversalRule rule(String ruleName) {
        for (TraversalRule r : rules) {
            if (r.name().equals(ruleName)) {
                return r;
            }
        }
        throw new InvalidInputException("no traversal rule '" + ruleName + "'; the rules are "
                + rules.stream().map(TraversalRule::name).collect(Collectors.joining(", ")));
    }

    /** The link types this rule set follows in one direction. */
    public Set<LinkType> followed(Direction direction) {
        Set<LinkType> types = EnumSet.noneOf(LinkType.class);
        for (TraversalRule r : rules) {
            if (r.direction() == direction && r.enabled()) {
                types.add(r.linkType());
            }
        }
        return types;
    }

    /** The names of the rules a caller may switch. */
    public List<String> toggleable() {
        return rules.stream()
                .filter(TraversalRule::toggleable)
                .map(TraversalRule::name)
                .toList();
    }

    /** A copy with one rule switched; see {@link #with(LinkType, Direction, boolean)}. */
    public TraversalRules with(String ruleName, boolean enabled) {
        TraversalRule r = rule(ruleName);
        return with(r.linkType(), r.direction(), enabled);
    }

    /**
     * A copy with one rule switched on or off.
     *
     * @throws InvalidInputException if the rule is not toggleable in this rule set, even when
     *                               {@code enabled} is its current value: asking to set a
     *                               fixed rule is a misunderstanding worth reporting
     */
    public TraversalRules with(LinkType type, Direction direction, boolean enabled) {
        TraversalRule current = rule(type, direction);
        if (!current.toggleable()) {
            throw new InvalidInputException("traversal rule " + current.name() + " of the " + name
                    + " rules cannot be toggled (it is always " + (current.enabled() ? "on" : "off")
                    + "); the toggleable rules are " + describe(toggleable()));
        }
        List<TraversalRule> changed = new ArrayList<>(rules);
        changed.set(index(type, direction), current.withEnabled(enabled));
        return new TraversalRules(name, changed);
    }

    private static String describe(List<String> names) {
        return names.isEmpty() ? "none" : String.join(", ", names);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TraversalRules other && name.equals(other.name) && rules.equals(other.rules);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + rules.hashCode();
    }

    /** The set's name and the rules it follows, e.g. {@code DELETE[input_calc_forward, ...]}. */
    @Override
    public String toString() {
        return name
                + rules.stream()
                        .filter(TraversalRule::enabled)
                        .map(TraversalRule::name)
                        .toList();
    }
}
