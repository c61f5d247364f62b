package dev.cairn.storage.graph;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import dev.cairn.storage.db.Database;

/** Reads the links at one stored node, in the order they were made, each seen from that node. */
final class StoredLinks {

    private StoredLinks() {}

    /** The links into {@code node}: each with its source. */
    static List<LinkTriple> incoming(Database database, Node node) {
        return links(database, node, "output_id", "input_id");
    }

    /** The links out of {@code node}: each with its target. */
    static List<LinkTriple> outgoing(Database database, Node node) {
        return links(database, node, "input_id", "output_id");
    }

    /** The links whose column {@code at} is the node, each with the node at the other end (column {@code other}). */
    private static List<LinkTriple> links(Database database, Node node, String at, String other) {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("SELECT l." + other + ", n.node_type, l.type, l.label"
                        + " FROM link l JOIN node n ON n.id = l." + other + " WHERE l." + at + " = ? ORDER BY l.id")) {
            s.setLong(1, node.id());
            List<LinkTriple> links = new ArrayList<>();
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    links.add(new LinkTriple(
                            rs.getLong(1), rs.getString(2), LinkType.fromDbValue(rs.getString(3)), rs.getString(4)));
                }
            }
            return links;
        } catch (SQLException e) {
            throw SqlErrors.translate(e, "reading the links of " + node.describe());
        }
    }
}
