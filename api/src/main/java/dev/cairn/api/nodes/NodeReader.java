package dev.cairn.api.nodes;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;

import org.springframework.stereotype.Component;

import dev.cairn.api.web.NodeRefs;
import dev.cairn.engine.Engine;
import dev.cairn.errors.NotFoundException;
import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.graph.NodeFiles;
import dev.cairn.storage.graph.StorageException;

/**
 * Reads one node as the API shows it. A node named by its whole uuid costs one statement: its
 * row, its owner's email, its computer and the counts of its links together; a prefix costs one
 * more, to resolve it ({@link NodeRefs}). Attributes and extras pass through as the database's
 * JSON text, never decoded and encoded again; a key filter is applied in the database. These
 * are fixed statements of one row each, the hottest reads of the API; lists go through the query
 * builder ({@link NodeLists}).
 */
@Component
public class NodeReader {

    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    /** A node named by a client: by uuid, or by id once a prefix is resolved. */
    record Key(UUID uuid, Long id) {

        NotFoundException notFound() {
            return new NotFoundException(uuid != null ? "no node has the uuid " + uuid : "node " + id + " is gone");
        }
    }

    /** A node's files, as its row names them. */
    record FileTree(long id, UUID uuid, NodeFiles files) {}

    private final Engine engine;
    private final NodeRefs refs;

    NodeReader(Engine engine, NodeRefs refs) {
        this.engine = engine;
        this.refs = refs;
    }

    /** The node's id; a 404 when no node has it, a 409 when a prefix names several. */
    public long id(String ref) {
        return refs.id(ref);
    }

    Key key(String ref) {
        if (ref.length() == 36 && UUID_TEXT.matcher(ref).matches()) {
            return new Key(UUID.fromString(ref.toLowerCase(Locale.ROOT)), null);
        }
        return new Key(null, refs.id(ref));
    }

    /** The node with this id (one just stored), every attribute and extra. */
    public NodeDetails read(long id) {
        return read(new Key(null, id), null, null);
    }

    /**
     * The node {@code ref} names.
     *
     * @param attributes the attribute keys to show, or null for all
     * @param extras     the extra keys to show, or null for all
     */
    NodeDetails read(String ref, List<String> attributes, List<String> extras) {
        return read(key(ref), attributes, extras);
    }

    private NodeDetails read(Key key, List<String> attributes, List<String> extras) {
        String sql = "SELECT n.uuid, n.node_type, n.process_type, n.label, n.description, n.ctime, n.mtime, u.email,"
                + " c.uuid, c.label, n.hash, "
                + json("attributes", attributes) + ", " + json("extras", extras) + ", n.repository_metadata::text,"
                + " (SELECT count(*) FROM link l WHERE l.output_id = n.id),"
                + " (SELECT count(*) FROM link l WHERE l.input_id = n.id), n.id"
                + " FROM node n JOIN app_user u ON u.id = n.user_id LEFT JOIN computer c ON c.id = n.computer_id"
                + (key.uuid() != null ? " WHERE n.uuid = ?" : " WHERE n.id = ?");
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement(sql)) {
            int p = 1;
            if (attributes != null) {
                s.setArray(p++, c.createArrayOf("text", attributes.toArray()));
            }
            if (extras != null) {
                s.setArray(p++, c.createArrayOf("text", extras.toArray()));
            }
            s.setObject(p, key.uuid() != null ? key.uuid() : key.id());
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw key.notFound();
                }
                UUID computer = rs.getObject(9, UUID.class);
                NodeFiles files = NodeFiles.fromMetadata(JsonCodec.readObject(rs.getString(14)));
                return new NodeDetails(
                        rs.getObject(1, UUID.class),
                        rs.getLong(17),
                        rs.getString(2),
                        rs.getString(3),
                        rs.getString(4),
                        rs.getString(5),
                        rs.getObject(6, OffsetDateTime.class),
                        rs.getObject(7, OffsetDateTime.class),
                        rs.getString(8),
                        computer == null ? null : new NodeDetails.ComputerRef(computer, rs.getString(10)),
                        rs.getString(11),
                        rs.getString(12),
                        rs.getString(13),
                        new NodeDetails.Files(files.keys().size(), files.isEmpty() ? List.of() : files.list("")),
                        new NodeDetails.Links(rs.getLong(15), rs.getLong(16)));
            }
        } catch (SQLException e) {
            throw new StorageException("reading node " + (key.uuid() != null ? key.uuid() : key.id()), e);
        }
    }

    /** A JSON column as text, whole or only some of its keys (picked in the database). */
    private static String json(String column, List<String> keys) {
        return keys == null
                ? "n." + column + "::text"
                : "(SELECT coalesce(jsonb_object_agg(e.key, e.value), '{}'::jsonb) FROM jsonb_each(n." + column
                        + ") AS e WHERE e.key = ANY(?))::text";
    }

    /** The files of the node {@code ref} names, from its row alone: a download's one statement. */
    FileTree files(String ref) {
        Key key = key(ref);
        String sql = "SELECT n.id, n.uuid, n.repository_metadata::text FROM node n"
                + (key.uuid() != null ? " WHERE n.uuid = ?" : " WHERE n.id = ?");
        try (Connection c = engine.database().connection();
                PreparedStatement s = c.prepareStatement(sql)) {
            s.setObject(1, key.uuid() != null ? key.uuid() : key.id());
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw key.notFound();
                }
                return new FileTree(
                        rs.getLong(1),
                        rs.getObject(2, UUID.class),
                        NodeFiles.fromMetadata(JsonCodec.readObject(rs.getString(3))));
            }
        } catch (SQLException e) {
            throw new StorageException("reading the files of node " + (key.uuid() != null ? key.uuid() : key.id()), e);
        }
    }
}
