package dev.cairn.api.groups;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

import org.springframework.stereotype.Component;

import dev.cairn.engine.Engine;
import dev.cairn.errors.InvalidInputException;
import dev.cairn.storage.graph.StorageException;

/** The nodes of groups as the API names them: uuids resolved to ids, and members read a page at a time. */
@Component
class GroupNodes {

    /** How many unknown uuids a refusal names. */
    private static final int NAMED = 10;

    private final Engine engine;

    GroupNodes(Engine engine) {
        this.engine = engine;
    }

    /**
     * The ids of the nodes with these uuids, in one query.
     *
     * @param field the request's field, for the message
     * @throws InvalidInputException naming (up to ten of) the uuids no node has
     */
    long[] ids(String field, List<UUID> uuids) {
        if (uuids == null || uuids.isEmpty()) {
            return new long[0];
        }
        if (uuids.stream().anyMatch(Objects::isNull)) {
            throw new InvalidInputException("field '" + field + "': null is not a node's uuid; nothing was changed");
        }
        Set<UUID> wanted = new LinkedHashSet<>(uuids);
        Map<UUID, Long> found = new HashMap<>();
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement("SELECT uuid, id FROM node WHERE uuid = ANY (?)")) {
            s.setArray(1, c.createArrayOf("uuid", wanted.toArray()));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    found.put(r.getObject(1, UUID.class), r.getLong(2));
                }
            }
        } catch (SQLException e) {
            throw new StorageException("finding the nodes of '" + field + "'", e);
        }
        List<UUID> missing = wanted.stream().filter(u -> !found.containsKey(u)).toList();
        if (!missing.isEmpty()) {
            throw new InvalidInputException("field '" + field + "': " + missing.size() + " of the " + wanted.size()
                    + " nodes do not exist: "
                    + String.join(
                            ", ",
                            missing.stream().limit(NAMED).map(UUID::toString).toList())
                    + (missing.size() > NAMED ? ", ..." : "") + "; nothing was changed");
        }
        return wanted.stream().mapToLong(found::get).toArray();
    }

    /** A page of a group's members, by node id, after {@code afterId}; each with its id for the cursor. */
    List<Member> page(long groupId, long afterId, int limit) {
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement(
                        "SELECT n.id, n.uuid, n.node_type, n.process_type, n.label, n.ctime FROM group_member m"
                                + " JOIN node n ON n.id = m.node_id WHERE m.group_id = ? AND m.node_id > ?"
                                + " ORDER BY m.node_id LIMIT ?")) {
            s.setLong(1, groupId);
            s.setLong(2, afterId);
            s.setInt(3, limit);
            List<Member> members = new ArrayList<>();
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    members.add(new Member(
                            r.getLong(1),
                            new MemberView(
                                    r.getObject(2, UUID.class),
                                    r.getString(3),
                                    r.getString(4),
                                    r.getString(5),
                                    r.getObject(6, OffsetDateTime.class))));
                }
            }
            return members;
        } catch (SQLException e) {
            throw new StorageException("reading the nodes of group " + groupId, e);
        }
    }

    /** A member and its id, which the cursor of the next page carries. */
    record Member(long id, MemberView view) {}
}
