package dev.cairn.storage.graph.traversal;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.stream.Stream;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.db.internal.Cursors;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.objects.ObjectKey;

/**
 * The object-store keys that nodes still reference. Deleting nodes removes only their
 * references; maintenance removes from the object store the keys not in this set.
 * <p>
 * A node's files are the tree in its {@code repository_metadata}:
 * {@code {"o": {name: {"k": key} | {"o": {...}}}}}. The tree is walked in the database by a
 * recursive query, and the keys come out distinct, through a cursor.
 */
public final class ObjectReferences {

    private static final String KEYS = """
        WITH RECURSIVE folder(entries) AS (
            SELECT repository_metadata -> 'o' FROM node WHERE jsonb_typeof(repository_metadata -> 'o') = 'object'
            UNION ALL
            SELECT e.value -> 'o' FROM folder f, jsonb_each(f.entries) e WHERE jsonb_typeof(e.value -> 'o') = 'object'
        )
        SELECT DISTINCT e.value ->> 'k' FROM folder f, jsonb_each(f.entries) e WHERE e.value -> 'k' IS NOT NULL
        """;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final Database database;

    /** The object references of the nodes of this database. */
    public ObjectReferences(Database database) {
        this.database = Objects.requireNonNull(database, "database");
    }

    /**
     * Calls {@code action} once with each distinct key referenced by any node, in no
     * particular order; returns how many there were. One statement, so one snapshot.
     *
     * @throws IllegalStateException if a node's metadata holds a value that is not a key
     */
    public long referencedObjectKeys(Consumer<ObjectKey> action) throws SQLException {
        // in a transaction: the cursor fetches in batches only within one
        return Transactions.run(database, connection -> {
            long[] count = {0};
            try (Stream<String> keys = Cursors.rows(connection.prepareStatement(KEYS), r -> r.getString(1))) {
                keys.forEach(hex -> {
                    action.accept(parse(hex));
                    count[0]++;
                });
            }
            return count[0];
        });
    }

    /** Where an object is referred from: a node (its uuid) and the path of the file. */
    public record Reference(String node, String path) {}

    /**
     * Each key referenced by any node, with one place it is referred from (for messages about an object
     * that is missing). The nodes' file trees are read through a cursor, in one snapshot, and walked here.
     */
    public Map<ObjectKey, Reference> references() {
        Map<ObjectKey, Reference> keys = new HashMap<>();
        try {
            Transactions.run(database, c -> {
                try (Statement s = c.createStatement()) {
                    s.setFetchSize(1000);
                    try (ResultSet r = s.executeQuery("SELECT uuid::text, repository_metadata::text FROM node"
                            + " WHERE repository_metadata <> '{}'::jsonb")) {
                        while (r.next()) {
                            walk(JSON.readTree(r.getString(2)), r.getString(1), "", keys);
                        }
                    }
                }
                return null;
            });
        } catch (SQLException e) {
            throw new StorageException("reading the object keys the nodes refer to", e);
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

    private static ObjectKey parse(String hex) {
        try {
            return ObjectKey.of(hex);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(
                    "a node's repository_metadata references '" + hex + "', which is not an object key: "
                            + e.getMessage(),
                    e);
        }
    }
}
