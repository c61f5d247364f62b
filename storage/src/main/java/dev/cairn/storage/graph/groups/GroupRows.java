package dev.cairn.storage.graph.groups;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Optional;
import java.util.UUID;

import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.errors.NotFoundException;

/**
 * The rows of table {@code node_group}, read and written on a connection whose transaction the caller
 * ({@link GroupStore}) holds. A group that is missing is a {@link NotFoundException} naming its id.
 */
final class GroupRows {

    /** The columns every read selects, in the order {@link #read} takes them. */
    static final String COLUMNS = "id, uuid, label, type_string, description, time, user_id, extras";

    private GroupRows() {}

    /** Sets one column of a group ({@code assignment} binds {@code value}); returns the group as it is now. */
    static Group update(Connection c, long groupId, String assignment, String value) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("UPDATE node_group SET " + assignment + " WHERE id = ? RETURNING " + COLUMNS)) {
            s.setString(1, value);
            s.setLong(2, groupId);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    throw notFound(groupId);
                }
                return read(r);
            }
        }
    }

    /** Deletes a group's row; its nodes stay. */
    static void delete(Connection c, long groupId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("DELETE FROM node_group WHERE id = ?")) {
            s.setLong(1, groupId);
            if (s.executeUpdate() == 0) {
                throw notFound(groupId);
            }
        }
    }

    /** The group with this id, which must exist. */
    static Group require(Connection c, long groupId) throws SQLException {
        try (PreparedStatement s = c.prepareStatement("SELECT " + COLUMNS + " FROM node_group WHERE id = ?")) {
            s.setLong(1, groupId);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    throw notFound(groupId);
                }
                return read(r);
            }
        }
    }

    /** The group with this label and type string, if there is one. */
    static Optional<Group> find(Connection c, String label, String typeString) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("SELECT " + COLUMNS + " FROM node_group WHERE label = ? AND type_string = ?")) {
            s.setString(1, label);
            s.setString(2, typeString);
            try (ResultSet r = s.executeQuery()) {
                return r.next() ? Optional.of(read(r)) : Optional.empty();
            }
        }
    }

    /** The group of the current row of a result selecting {@link #COLUMNS}. */
    static Group read(ResultSet r) throws SQLException {
        return new Group(
                r.getLong(1),
                r.getObject(2, UUID.class),
                r.getString(3),
                r.getString(4),
                r.getString(5),
                r.getObject(6, OffsetDateTime.class),
                r.getLong(7),
                JsonCodec.readObject(r.getString(8)));
    }

    /** The error for a group id that names no group. */
    static NotFoundException notFound(long groupId) {
        return new NotFoundException("group " + groupId + " does not exist");
    }
}
