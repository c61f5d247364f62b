package dev.cairn.storage.views;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.StorageException;

/** How big the graph is: its rows counted in the database, and the schema's version. */
public final class GraphSizes {

    /**
     * The graph's size.
     *
     * @param schemaVersion the version of the last migration applied, or null before any
     * @param nodesByType   nodes per node type, by type; null unless asked for
     */
    public record Sizes(
            long nodes, long links, long groups, long users, String schemaVersion, Map<String, Long> nodesByType) {}

    private final Database database;

    /** The sizes of the graph in this database. */
    public GraphSizes(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /** The counts now; with {@code byType}, the nodes per node type too (one more statement). */
    public Sizes read(boolean byType) {
        try (Connection c = database.connection();
                Statement s = c.createStatement()) {
            long nodes = count(s, "SELECT count(*) FROM node");
            long links = count(s, "SELECT count(*) FROM link");
            long groups = count(s, "SELECT count(*) FROM node_group");
            long users = count(s, "SELECT count(*) FROM app_user");
            String version;
            try (ResultSet r = s.executeQuery("SELECT version FROM flyway_schema_history WHERE success"
                    + " AND version IS NOT NULL ORDER BY installed_rank DESC LIMIT 1")) {
                version = r.next() ? r.getString(1) : null;
            }
            Map<String, Long> types = null;
            if (byType) {
                types = new LinkedHashMap<>();
                try (ResultSet r =
                        s.executeQuery("SELECT node_type, count(*) FROM node GROUP BY node_type ORDER BY node_type")) {
                    while (r.next()) {
                        types.put(r.getString(1), r.getLong(2));
                    }
                }
            }
            return new Sizes(nodes, links, groups, users, version, types);
        } catch (SQLException e) {
            throw new StorageException("counting the graph's rows", e);
        }
    }

    private static long count(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }
}
