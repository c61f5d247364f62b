package dev.cairn.storage.query;

import static dev.cairn.storage.query.EntityType.COMMENT;
import static dev.cairn.storage.query.EntityType.COMPUTER;
import static dev.cairn.storage.query.EntityType.GROUP;
import static dev.cairn.storage.query.EntityType.LOG;
import static dev.cairn.storage.query.EntityType.NODE;
import static dev.cairn.storage.query.EntityType.USER;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How a vertex of a query path joins an earlier one, named from the new vertex's side:
 * {@code with_incoming("s")} finds the nodes whose incoming links come from {@code s}, that
 * is, the outputs of {@code s}; {@code with_ancestors("s")} finds the descendants of {@code s}.
 */
public enum Relationship {
    /** Outputs of the related node: one link from it to this vertex. */
    WITH_INCOMING,
    /** Inputs of the related node: one link from this vertex to it. */
    WITH_OUTGOING,
    /** Descendants of the related node, through any number of links. */
    WITH_ANCESTORS,
    /** Ancestors of the related node, through any number of links. */
    WITH_DESCENDANTS,
    /** Nodes in the related group, or a user's groups. */
    WITH_GROUP,
    /** The groups, computer, user, comments or logs of the related node. */
    WITH_NODE,
    /** Nodes that ran on the related computer. */
    WITH_COMPUTER,
    /** Nodes, groups or comments of the related user. */
    WITH_USER,
    /** The node or user of the related comment. */
    WITH_COMMENT,
    /** The node of the related log entry. */
    WITH_LOG;

    /** How the SQL joins the two tables. */
    enum Shape {
        /** Through one row of {@code link}. */
        LINK,
        /** Through a recursive walk over {@code link}. */
        RECURSIVE,
        /** Through {@code group_member}. */
        MEMBERSHIP,
        /** This vertex's column holds the related row's id. */
        OWN_COLUMN,
        /** The related row's column holds this vertex's id. */
        RELATED_COLUMN
    }

    /** One allowed join: this vertex's entity, the related one, and the column that joins them. */
    record Rule(EntityType self, Relationship relationship, EntityType related, Shape shape, String column) {}

    private static final List<Rule> RULES = List.of(
            new Rule(NODE, WITH_INCOMING, NODE, Shape.LINK, null),
            new Rule(NODE, WITH_OUTGOING, NODE, Shape.LINK, null),
            new Rule(NODE, WITH_ANCESTORS, NODE, Shape.RECURSIVE, null),
            new Rule(NODE, WITH_DESCENDANTS, NODE, Shape.RECURSIVE, null),
            new Rule(NODE, WITH_GROUP, GROUP, Shape.MEMBERSHIP, null),
            new Rule(NODE, WITH_COMPUTER, COMPUTER, Shape.OWN_COLUMN, "computer_id"),
            new Rule(NODE, WITH_USER, USER, Shape.OWN_COLUMN, "user_id"),
            new Rule(NODE, WITH_COMMENT, COMMENT, Shape.RELATED_COLUMN, "node_id"),
            new Rule(NODE, WITH_LOG, LOG, Shape.RELATED_COLUMN, "node_id"),
            new Rule(GROUP, WITH_NODE, NODE, Shape.MEMBERSHIP, null),
            new Rule(GROUP, WITH_USER, USER, Shape.OWN_COLUMN, "user_id"),
            new Rule(COMPUTER, WITH_NODE, NODE, Shape.RELATED_COLUMN, "computer_id"),
            new Rule(USER, WITH_NODE, NODE, Shape.RELATED_COLUMN, "user_id"),
            new Rule(USER, WITH_GROUP, GROUP, Shape.RELATED_COLUMN, "user_id"),
            new Rule(USER, WITH_COMMENT, COMMENT, Shape.RELATED_COLUMN, "user_id"),
            new Rule(COMMENT, WITH_NODE, NODE, Shape.OWN_COLUMN, "node_id"),
            new Rule(COMMENT, WITH_USER, USER, Shape.OWN_COLUMN, "user_id"),
            new Rule(LOG, WITH_NODE, NODE, Shape.OWN_COLUMN, "node_id"));

    /** The name in the JSON form, e.g. {@code with_incoming}. */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    boolean isRecursive() {
        return this == WITH_ANCESTORS || this == WITH_DESCENDANTS;
    }

    static Optional<Rule> rule(EntityType self, Relationship relationship) {
        return RULES.stream()
                .filter(r -> r.self == self && r.relationship == relationship)
                .findFirst();
    }

    /** The relationships a vertex of this entity may use, for messages. */
    static List<String> allowedFor(EntityType self) {
        return RULES.stream()
                .filter(r -> r.self == self)
                .map(r -> r.relationship.jsonName() + " (a " + r.related.jsonName() + ")")
                .toList();
    }

    static List<String> jsonNames() {
        return Arrays.stream(values()).map(Relationship::jsonName).toList();
    }

    static Optional<Relationship> fromJsonName(String name) {
        return Arrays.stream(values()).filter(r -> r.jsonName().equals(name)).findFirst();
    }
}
