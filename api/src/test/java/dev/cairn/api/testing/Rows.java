package dev.cairn.api.testing;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import dev.cairn.engine.Engine;

/** Row counts of the engine's tables, to check that a refused request stored nothing. */
public record Rows(long nodes, long links, long processes, long outbox) {

    public static Rows count(Engine engine) {
        try (Connection c = engine.database().connection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT (SELECT count(*) FROM node), (SELECT count(*) FROM link),"
                        + " (SELECT count(*) FROM process), (SELECT count(*) FROM outbox)")) {
            rs.next();
            return new Rows(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4));
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
