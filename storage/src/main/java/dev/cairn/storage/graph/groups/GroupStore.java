package dev.cairn.storage.graph.groups;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.LongConsumer;
import java.util.stream.LongStream;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.db.internal.Cursors;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.AttributeValues;
import dev.cairn.storage.graph.NodeIds;
import dev.cairn.storage.graph.SqlErrors;
import dev.cairn.storage.graph.traversal.DeletionResult;
import dev.cairn.storage.graph.traversal.NodeDeleter;
import dev.cairn.storage.graph.traversal.TraversalRules;

/**
 * Groups of nodes. Membership changes are set-based: any number of nodes in one statement,
 * handed over as {@link NodeIds} (an array parameter or COPY), never a parameter per node. Each
 * method is one transaction; a refusal of the database is the graph's exception.
 */
public final class GroupStore {

    /** The type string of groups that users make. */
    public static final String CORE = "core";

    private final Database database;

    /** The groups of this database. */
    public GroupStore(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * Creates an empty group.
     *
     * @throws ConflictException if a group of this type has the label
     * @throws NotFoundException if the user does not exist
     */
    public Group create(String label, String typeString, String description, long userId) {
        return create(label, typeString, description, userId, Map.of());
    }

    /**
     * Creates an empty group with extras (cleaned as node extras are).
     *
     * @throws ConflictException if a group of this type has the label
     * @throws NotFoundException if the user does not exist
     */
    public Group create(String label, String typeString, String description, long userId, Map<String, ?> extras) {
        requireText("label", label);
        requireText("type string", typeString);
        String json = JsonCodec.write(AttributeValues.cleanMap(extras, "group extras"));
        try {
            return run("making group '" + label + "'", c -> {
                if (GroupRows.find(c, label, typeString).isPresent()) {
                    throw labelTaken(label, typeString, null);
                }
                try (PreparedStatement s =
                        c.prepareStatement("INSERT INTO node_group (uuid, label, type_string, description,"
                                + " time, user_id, extras) SELECT ?, ?, ?, ?, now(), id, ?::jsonb FROM app_user"
                                + " WHERE id = ? RETURNING " + GroupRows.COLUMNS)) {
                    s.setObject(1, UUID.randomUUID());
                    s.setString(2, label);
                    s.setString(3, typeString);
                    s.setString(4, Objects.requireNonNullElse(description, ""));
                    s.setString(5, json);
                    s.setLong(6, userId);
                    try (ResultSet r = s.executeQuery()) {
                        if (!r.next()) {
                            throw new NotFoundException("group '" + label + "': user " + userId + " does not exist");
                        }
                        return GroupRows.read(r);
                    }
                }
            });
        } catch (RuntimeException e) {
            if (SqlErrors.violated(e, "node_group_label_type_string_key")) {
                throw labelTaken(label, typeString, e);
            }
            throw e;
        }
    }

    /** @throws NotFoundException if there is no such group */
    public Group get(long groupId) {
        return run("reading group " + groupId, c -> GroupRows.require(c, groupId));
    }

    /** The group with this label and type string, if there is one. */
    public Optional<Group> find(String label, String typeString) {
        return run("finding group '" + label + "'", c -> GroupRows.find(c, label, typeString));
    }

    /** The groups of one type string, by label. */
    public List<Group> list(String typeString) {
        return run("listing groups", c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "SELECT " + GroupRows.COLUMNS + " FROM node_group WHERE type_string = ? ORDER BY label")) {
                s.setString(1, typeString);
                List<Group> groups = new ArrayList<>();
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        groups.add(GroupRows.read(r));
                    }
                }
                return groups;
            }
        });
    }

    /** The group with this uuid, if there is one. */
    public Optional<Group> find(UUID uuid) {
        return run("finding group " + uuid, c -> {
            try (PreparedStatement s =
                    c.prepareStatement("SELECT " + GroupRows.COLUMNS + " FROM node_group WHERE uuid = ?")) {
                s.setObject(1, uuid);
                try (ResultSet r = s.executeQuery()) {
                    return r.next() ? Optional.of(GroupRows.read(r)) : Optional.empty();
                }
            }
        });
    }

    /**
     * One page of the groups of a type string, by label: at most {@code limit} after the label
     * {@code afterLabel} (null: from the first).
     */
    public List<Group> list(String typeString, String afterLabel, int limit) {
        return run("listing groups", c -> {
            try (PreparedStatement s =
                    c.prepareStatement("SELECT " + GroupRows.COLUMNS + " FROM node_group WHERE type_string = ?"
                            + " AND (?::text IS NULL OR label > ?) ORDER BY label LIMIT ?")) {
                s.setString(1, typeString);
                s.setString(2, afterLabel);
                s.setString(3, afterLabel);
                s.setInt(4, limit);
                List<Group> groups = new ArrayList<>();
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        groups.add(GroupRows.read(r));
                    }
                }
                return groups;
            }
        });
    }

    /** The number of nodes in each of the groups, by group id (a group that does not exist counts 0). */
    public Map<Long, Long> counts(Collection<Long> groupIds) {
        return run("counting the nodes of groups", c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT g.id, (SELECT count(*) FROM group_member m"
                    + " WHERE m.group_id = g.id) FROM unnest(?::bigint[]) AS g (id)")) {
                s.setObject(1, groupIds.stream().mapToLong(Long::longValue).toArray());
                Map<Long, Long> counts = new HashMap<>();
                try (ResultSet r = s.executeQuery()) {
                    while (r.next()) {
                        counts.put(r.getLong(1), r.getLong(2));
                    }
                }
                return counts;
            }
        });
    }

    /** @throws ConflictException if another group of the same type has the label */
    public Group relabel(long groupId, String label) {
        requireText("label", label);
        try {
            return run("relabelling group " + groupId, c -> {
                Group group = GroupRows.require(c, groupId);
                if (!group.label().equals(label)
                        && GroupRows.find(c, label, group.typeString()).isPresent()) {
                    throw labelTaken(label, group.typeString(), null);
                }
                return GroupRows.update(c, groupId, "label = ?", label);
            });
        } catch (RuntimeException e) {
            if (SqlErrors.violated(e, "node_group_label_type_string_key")) {
                throw labelTaken(label, get(groupId).typeString(), e);
            }
            throw e;
        }
    }

    /** Sets a group's description. */
    public Group describe(long groupId, String description) {
        return run(
                "describing group " + groupId,
                c -> GroupRows.update(c, groupId, "description = ?", Objects.requireNonNullElse(description, "")));
    }

    /**
     * Sets the extras in {@code set} (cleaned as node extras are: keys without dots, integers as
     * longs, no NaN) and removes those named in {@code remove}; the others stay.
     */
    public Group changeExtras(long groupId, Map<String, ?> set, Collection<String> remove) {
        Map<String, Object> cleaned = AttributeValues.cleanMap(set, "group extras");
        return run("changing the extras of group " + groupId, c -> {
            try (PreparedStatement s =
                    c.prepareStatement("UPDATE node_group SET extras = (extras - ?::text[]) || ?::jsonb"
                            + " WHERE id = ? RETURNING " + GroupRows.COLUMNS)) {
                s.setArray(1, c.createArrayOf("text", remove.toArray()));
                s.setString(2, JsonCodec.write(cleaned));
                s.setLong(3, groupId);
                try (ResultSet r = s.executeQuery()) {
                    if (!r.next()) {
                        throw GroupRows.notFound(groupId);
                    }
                    return GroupRows.read(r);
                }
            }
        });
    }

    /** What {@link #changeMembers} did: nodes that became members, and members that left. */
    public record MembershipChange(long added, long removed) {}

    /**
     * Adds some nodes and removes others in one transaction: either both happen or neither.
     * Nodes already members are not added again, and removing a node that is not a member does
     * nothing.
     *
     * @throws NotFoundException if the group or a node to add does not exist; then nothing changes
     */
    public MembershipChange changeMembers(long groupId, NodeIds add, NodeIds remove) {
        return run("changing the members of group " + groupId, c -> {
            GroupRows.require(c, groupId);
            return new MembershipChange(insertMembers(c, groupId, add), deleteMembers(c, groupId, remove));
        });
    }

    /**
     * Adds nodes; those already members are left alone.
     *
     * @return the number of nodes that became members
     * @throws NotFoundException if the group or any of the nodes does not exist; then nothing is added
     */
    public long addNodes(long groupId, NodeIds nodes) {
        return run("adding nodes to group " + groupId, c -> {
            GroupRows.require(c, groupId);
            return insertMembers(c, groupId, nodes);
        });
    }

    /**
     * Removes nodes from the group; the nodes stay. Ids that are not members are ignored.
     *
     * @return the number of nodes removed
     */
    public long removeNodes(long groupId, NodeIds nodes) {
        return run("removing nodes from group " + groupId, c -> {
            GroupRows.require(c, groupId);
            return deleteMembers(c, groupId, nodes);
        });
    }

    /** Removes every node from the group; returns how many there were. */
    public long clear(long groupId) {
        return run("clearing group " + groupId, c -> {
            GroupRows.require(c, groupId);
            try (PreparedStatement s = c.prepareStatement("DELETE FROM group_member WHERE group_id = ?")) {
                s.setLong(1, groupId);
                return (long) s.executeUpdate();
            }
        });
    }

    /** The number of nodes in the group. */
    public long count(long groupId) {
        return run("counting the nodes of group " + groupId, c -> {
            GroupRows.require(c, groupId);
            try (PreparedStatement s = c.prepareStatement("SELECT count(*) FROM group_member WHERE group_id = ?")) {
                s.setLong(1, groupId);
                try (ResultSet r = s.executeQuery()) {
                    r.next();
                    return r.getLong(1);
                }
            }
        });
    }

    /**
     * Calls {@code action} with the id of each member, ascending, read through a cursor so
     * that a group of millions is never in memory; returns how many there were.
     */
    public long forEachMember(long groupId, LongConsumer action) {
        return run("reading the members of group " + groupId, c -> {
            GroupRows.require(c, groupId);
            PreparedStatement s =
                    c.prepareStatement("SELECT node_id FROM group_member WHERE group_id = ? ORDER BY node_id");
            s.setLong(1, groupId);
            long[] count = {0};
            try (LongStream members = Cursors.longs(s)) {
                members.forEach(id -> {
                    action.accept(id);
                    count[0]++;
                });
            }
            return count[0];
        });
    }

    /** Deletes the group; its nodes stay. @throws NotFoundException if there is no such group */
    public void delete(long groupId) {
        run("deleting group " + groupId, c -> {
            GroupRows.delete(c, groupId);
            return null;
        });
    }

    /**
     * Deletes the group and its nodes, with everything the deletion rules take along (see
     * {@link NodeDeleter}), in one transaction. The group row is locked first, so no node can
     * join the group meanwhile.
     *
     * @param rules {@link TraversalRules#DELETE}, possibly with its toggleable rules switched
     */
    public DeletionResult deleteWithNodes(long groupId, TraversalRules rules) {
        return run("deleting group " + groupId + " with its nodes", c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT 1 FROM node_group WHERE id = ? FOR UPDATE")) {
                s.setLong(1, groupId);
                try (ResultSet r = s.executeQuery()) {
                    if (!r.next()) {
                        throw GroupRows.notFound(groupId);
                    }
                }
            }
            DeletionResult result = new NodeDeleter(database).delete(c, NodeIds.inGroup(groupId), rules);
            GroupRows.delete(c, groupId);
            return result;
        });
    }

    /** Runs {@code work} in one transaction; a failure of the database is the graph's exception. */
    private <T> T run(String doing, Transactions.Work<T> work) {
        try {
            return Transactions.run(database, work);
        } catch (SQLException e) {
            throw SqlErrors.translate(e, doing);
        }
    }

    private static long insertMembers(Connection c, long groupId, NodeIds nodes) throws SQLException {
        NodeIds.Selection selection = nodes.select(c);
        selection.requireNodes(c, "nodes to add to group " + groupId);
        try (PreparedStatement s =
                c.prepareStatement("INSERT INTO group_member (group_id, node_id) SELECT DISTINCT ?::bigint, id"
                        + " FROM (" + selection.sql() + ") s ON CONFLICT DO NOTHING")) {
            s.setLong(1, groupId);
            selection.bind(s, 2);
            return s.executeUpdate();
        }
    }

    private static long deleteMembers(Connection c, long groupId, NodeIds nodes) throws SQLException {
        NodeIds.Selection selection = nodes.select(c);
        try (PreparedStatement s = c.prepareStatement(
                "DELETE FROM group_member WHERE group_id = ? AND node_id IN (" + selection.sql() + ")")) {
            s.setLong(1, groupId);
            selection.bind(s, 2);
            return s.executeUpdate();
        }
    }

    private static void requireText(String what, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidInputException("group " + what + " must not be empty");
        }
    }

    private static ConflictException labelTaken(String label, String typeString, Throwable cause) {
        return new ConflictException(
                "a group labelled '" + label + "' of type '" + typeString + "' exists already", cause);
    }
}
