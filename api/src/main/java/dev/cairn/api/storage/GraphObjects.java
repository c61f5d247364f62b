package dev.cairn.api.storage;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.objects.ObjectKey;

/** The object keys the graph refers to: every file of every node ({@code repository_metadata}). */
final class GraphObjects {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** Where an object is referred from: a node and a file path. */
    record Reference(String node, String path) {}

    private GraphObjects() {}

    /** Each key the graph refers to, with one place it is referred from. */
    static Map<ObjectKey, Reference> referenced(Database database) throws SQLException {
        Map<ObjectKey, Reference> keys = new HashMap<>();
        try (Connection c = database.connection()) {
            c.setAutoCommit(false); // a cursor: the rows are read in batches
            try (Statement s = c.createStatement()) {
                s.setFetchSize(1000);
                try (ResultSet r = s.executeQuery("SELECT uuid::text, repository_metadata::text FROM node"
                        + " WHERE repository_metadata <> '{}'::jsonb")) {
                    while (r.next()) {
                        walk(JSON.readTree(r.getString(2)), r.getString(1), "", keys);
                    }
                }
            } finally {
                c.rollback();
            }
        }
        return keys;
    }

    private static void walk(JsonNode tree, String node, String prefix, Map<ObjectKey, Reference> keys) {
        JsonNode entries = tree.get("o");
        if (entries == null) {
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = entries.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String path = prefix + e.getKey();
            JsonNode k = e.getValue().get("k");
            if (k != null) {
                keys.putIfAbsent(ObjectKey.of(k.asString()), new Reference(node, path));
            } else {
                walk(e.getValue(), node, path + "/", keys);
            }
        }
    }

    static Set<ObjectKey> keys(Database database) throws SQLException {
        return referenced(database).keySet();
    }
}
