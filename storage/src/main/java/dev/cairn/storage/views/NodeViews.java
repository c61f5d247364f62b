package dev.cairn.storage.views;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.LongStream;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.graph.NodeFiles;
import dev.cairn.storage.graph.StorageException;

/**
 * One node as a server shows it, and the look-ups by which clients name nodes. These are fixed
 * statements of one row each (or one per node named), the hottest reads of a server: a node named
 * by its uuid costs one statement with its owner, computer and link counts together; attributes
 * and extras stay the database's JSON text, and a key filter is applied in the database. Lists go
 * through the query builder ({@link dev.cairn.storage.query}).
 */
public final class NodeViews {

    private final Database database;

    /** The node views of this database. */
    public NodeViews(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * The node with this uuid.
     *
     * @param attributes the attribute keys to show, or null for all
     * @param extras     the extra keys to show, or null for all
     */
    public Optional<NodeView> read(UUID uuid, List<String> attributes, List<String> extras) {
        return read("n.uuid = ?", uuid, attributes, extras);
    }

    /** The node with this id; see {@link #read(UUID, List, List)}. */
    public Optional<NodeView> read(long id, List<String> attributes, List<String> extras) {
        return read("n.id = ?", id, attributes, extras);
    }

    private Optional<NodeView> read(String where, Object key, List<String> attributes, List<String> extras) {
        String sql = "SELECT n.uuid, n.node_type, n.process_type, n.label, n.description, n.ctime, n.mtime, u.email,"
                + " c.uuid, c.label, n.hash, "
                + json("attributes", attributes) + ", " + json("extras", extras) + ", n.repository_metadata::text,"
                + " (SELECT count(*) FROM link l WHERE l.output_id = n.id),"
                + " (SELECT count(*) FROM link l WHERE l.input_id = n.id), n.id"
                + " FROM node n JOIN app_user u ON u.id = n.user_id LEFT JOIN computer c ON c.id = n.computer_id"
                + " WHERE " + where;
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(sql)) {
            int p = 1;
            if (attributes != null) {
                s.setArray(p++, c.createArrayOf("text", attributes.toArray()));
            }
            if (extras != null) {
                s.setArray(p++, c.createArrayOf("text", extras.toArray()));
            }
            s.setObject(p, key);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new NodeView(
                        rs.getObject(1, UUID.class),
                        rs.getLong(17),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getObject(6, OffsetDateTime.class),
                        rs.getObject(7, OffsetDateTime.class),
                        rs.getString(8),
                        rs.getObject(9, UUID.class),
                        rs.getString(10),
                        rs.getString(11),
                        rs.getString(12),
                        rs.getString(13),
                        NodeFiles.fromMetadata(JsonCodec.readObject(rs.getString(14))),
                        rs.getLong(15),
                        rs.getLong(16)));
            }
        } catch (SQLException e) {
            throw new StorageException("reading node " + key, e);
        }
    }

    /** A JSON column as text, whole or only some of its keys (picked in the database). */
    private static String json(String column, List<String> keys) {
        return keys == null
                ? "n." + column + "::text"
                : "(SELECT coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb) FROM jsonb_each(n." + column
                        + ") AS e WHERE e.key = ANY(?))::text";
    }

    /** The files of the node with this uuid, from its row alone: a download's one statement. */
    public Optional<NodeFileTree> files(UUID uuid) {
        return files("uuid = ?", uuid);
    }

    /** The files of the node with this id; see {@link #files(UUID)}. */
    public Optional<NodeFileTree> files(long id) {
        return files("id = ?", id);
    }

    private Optional<NodeFileTree> files(String where, Object key) {
        try (Connection c = database.connection();
                PreparedStatement s =
                        c.prepareStatement("SELECT id, uuid, repository_metadata::text FROM node WHERE " + where)) {
            s.setObject(1, key);
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new NodeFileTree(
                        rs.getLong(1),
                        rs.getObject(2, UUID.class),
                        NodeFiles.fromMetadata(JsonCodec.readObject(rs.getString(3)))));
            }
        } catch (SQLException e) {
            throw new StorageException("reading the files of node " + key, e);
        }
    }

    /** The node with this uuid, by what names it. */
    public Optional<NodeIdentity> identity(UUID uuid) {
        return identities("uuid = ?", uuid, 1).stream().findFirst();
    }

    /** The node with this id, by what names it. */
    public Optional<NodeIdentity> identity(long id) {
        return identities("id = ?", id, 1).stream().findFirst();
    }

    /**
     * The nodes whose uuids lie between two (both included), by id, at most {@code limit}: the nodes a
     * uuid prefix names, found on the uuid index.
     */
    public List<NodeIdentity> withUuidBetween(UUID lowest, UUID highest, int limit) {
        return identities("uuid BETWEEN ? AND ? ORDER BY id", new Object[] {lowest, highest}, limit);
    }

    /** The nodes with these ids, by id, at most {@code limit}. */
    public List<NodeIdentity> identities(long[] ids, int limit) {
        return identities("id = ANY(?) ORDER BY id", new Ids(ids), limit);
    }

    private List<NodeIdentity> identities(String where, Object keys, int limit) {
        Object[] values = keys instanceof Object[] several ? several : new Object[] {keys};
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(
                        "SELECT id, uuid, node_type, label FROM node WHERE " + where + " LIMIT " + limit)) {
            bind(c, s, values);
            List<NodeIdentity> found = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    found.add(new NodeIdentity(
                            rs.getLong(1), rs.getObject(2, UUID.class), rs.getString(3), rs.getString(4)));
                }
            }
            return found;
        } catch (SQLException e) {
            throw new StorageException("finding nodes", e);
        }
    }

    /** The ids of the nodes with these uuids, in one statement; uuids no node has are left out. */
    public Map<UUID, Long> idsOf(Collection<UUID> uuids) {
        Map<UUID, Long> found = new HashMap<>();
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("SELECT uuid, id FROM node WHERE uuid = ANY (?)")) {
            s.setArray(1, c.createArrayOf("uuid", uuids.toArray()));
            try (ResultSet r = s.executeQuery()) {
                while (r.next()) {
                    found.put(r.getObject(1, UUID.class), r.getLong(2));
                }
            }
        } catch (SQLException e) {
            throw new StorageException("finding " + uuids.size() + " nodes by uuid", e);
        }
        return found;
    }

    /** The uuids of the nodes with these ids, in one statement; ids no node has are left out. */
    public Map<Long, UUID> uuidsOf(Collection<Long> ids) {
        Map<Long, UUID> uuids = new HashMap<>();
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("SELECT id, uuid FROM node WHERE id = ANY(?)")) {
            s.setArray(1, c.createArrayOf("bigint", ids.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    uuids.put(rs.getLong(1), rs.getObject(2, UUID.class));
                }
            }
        } catch (SQLException e) {
            throw new StorageException("reading the uuids of " + ids.size() + " nodes", e);
        }
        return uuids;
    }

    /** A process that has not ended (its node is not sealed), and the state it is in. */
    public record UnsealedProcess(UUID uuid, String state) {}

    /** The processes among these nodes that have not ended (are not sealed), by id, at most {@code limit}. */
    public List<UnsealedProcess> unsealedProcesses(long[] ids, int limit) {
        List<UnsealedProcess> found = new ArrayList<>();
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("SELECT uuid, attributes->>'process_state' FROM node"
                        + " WHERE id = ANY(?) AND node_type LIKE 'process.%'"
                        + " AND coalesce(attributes->>'sealed', 'false') <> 'true' ORDER BY id LIMIT " + limit)) {
            bind(c, s, new Object[] {new Ids(ids)});
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    found.add(new UnsealedProcess(rs.getObject(1, UUID.class), rs.getString(2)));
                }
            }
        } catch (SQLException e) {
            throw new StorageException("finding the processes that have not ended", e);
        }
        return found;
    }

    /** Node ids to bind as one {@code bigint[]}. */
    private record Ids(long[] ids) {}

    private static void bind(Connection c, PreparedStatement s, Object[] values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            if (values[i] instanceof Ids(long[] ids)) {
                s.setArray(
                        i + 1,
                        c.createArrayOf("bigint", LongStream.of(ids).boxed().toArray()));
            } else {
                s.setObject(i + 1, values[i]);
            }
        }
    }
}
