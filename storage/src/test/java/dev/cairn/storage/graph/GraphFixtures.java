package dev.cairn.storage.graph;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import dev.cairn.storage.db.Database;

/** Rows the graph tests need around their nodes, written with plain SQL. */
public final class GraphFixtures {

    private GraphFixtures() {}

    public static long user(Database database, String email) throws SQLException {
        return insert(database, "INSERT INTO app_user (email) VALUES (?) RETURNING id", email);
    }

    public static long computer(Database database, String label) throws SQLException {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(
                        "INSERT INTO computer (uuid, label, hostname, transport_type, scheduler_type) "
                                + "VALUES (?, ?, 'localhost', 'core.local', 'core.direct') RETURNING id")) {
            s.setObject(1, UUID.randomUUID());
            s.setString(2, label);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    public static long count(Database database, String table) throws SQLException {
        try (Connection c = database.connection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT count(*) FROM " + table)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static long insert(Database database, String sql, String value) throws SQLException {
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement(sql)) {
            s.setString(1, value);
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }
}
