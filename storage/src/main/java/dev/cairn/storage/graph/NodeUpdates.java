package dev.cairn.storage.graph;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.JsonText;
import dev.cairn.storage.errors.InvalidInputException;

/**
 * The changes a stored node still allows, each one statement on a connection of its own: its label, its
 * description and its extras, with its modification time. A node given by its object is told the new
 * values, so it agrees with its row. {@link GraphStore} offers them; extras set one by one go through a
 * {@link GraphTransaction}, which merges them as a batch does.
 */
final class NodeUpdates {

    private final Database database;

    NodeUpdates(Database database) {
        this.database = database;
    }

    void setLabel(Node node, String label) {
        Objects.requireNonNull(label, "label");
        OffsetDateTime mtime =
                update(node, "UPDATE node SET label = ?, mtime = now() WHERE id = ? RETURNING mtime", label);
        node.updateStored(label, node.description(), node.extras(), mtime);
    }

    void setDescription(Node node, String description) {
        Objects.requireNonNull(description, "description");
        OffsetDateTime mtime = update(
                node, "UPDATE node SET description = ?, mtime = now() WHERE id = ? RETURNING mtime", description);
        node.updateStored(node.label(), description, node.extras(), mtime);
    }

    void deleteExtra(Node node, String key) {
        OffsetDateTime mtime =
                update(node, "UPDATE node SET extras = extras - ?, mtime = now() WHERE id = ? RETURNING mtime", key);
        Map<String, Object> extras = new LinkedHashMap<>(node.extras());
        extras.remove(key);
        node.updateStored(node.label(), node.description(), Collections.unmodifiableMap(extras), mtime);
    }

    /** See {@link GraphStore#update(long, String, String, Map, Collection)}. */
    void update(
            long nodeId, String label, String description, Map<String, ?> extras, Collection<String> removedExtras) {
        Map<String, Object> cleaned = new LinkedHashMap<>();
        extras.forEach((key, value) -> {
            AttributeValues.checkKey(key, "extras");
            cleaned.put(key, AttributeValues.clean(value, "extras." + key));
        });
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(
                        "UPDATE node SET label = coalesce(?, label), description = coalesce(?, description),"
                                + " extras = (extras || ?::jsonb) - ?::text[], mtime = now() WHERE id = ?")) {
            Array removed = c.createArrayOf("text", removedExtras.toArray());
            s.setString(1, label);
            s.setString(2, description);
            s.setString(3, JsonText.write(cleaned));
            s.setArray(4, removed);
            s.setLong(5, nodeId);
            if (s.executeUpdate() == 0) {
                throw new NodeNotFoundException("no node with id " + nodeId);
            }
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "updating node " + nodeId);
        }
    }

    /** Runs an update of one column of a stored node, given as the statement's first parameter; returns its mtime. */
    private OffsetDateTime update(Node node, String sql, String value) {
        if (!node.isStored()) {
            throw new InvalidInputException(node.describe() + " is not stored; set it on the node before storing");
        }
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, value);
            s.setLong(2, node.id());
            try (ResultSet rs = s.executeQuery()) {
                if (!rs.next()) {
                    throw new NodeNotFoundException(node.describe() + " is no longer in the database");
                }
                return rs.getObject(1, OffsetDateTime.class);
            }
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "updating " + node.describe());
        }
    }
}
