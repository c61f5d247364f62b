package dev.cairn.storage.archive.aiida;

import java.util.Map;
import java.util.function.Consumer;

import tools.jackson.databind.JsonNode;

/**
 * A node's {@code repository_metadata}: a file is {@code {"k": key}}, a directory {@code {"o": {name:
 * entry}}}, an empty directory (and a node without files) {@code {}}. Checked whole, since its names
 * become paths when the node's files are written out somewhere.
 */
final class RepositoryTree {

    private RepositoryTree() {}

    /**
     * Passes every key of {@code tree} to {@code keys}; returns why the tree is malformed, or {@code null}
     * when it is well formed.
     */
    static String walk(JsonNode tree, Consumer<String> keys) {
        if (tree == null || !tree.isObject()) {
            return "is not a JSON object";
        }
        return entry(tree, "", keys);
    }

    private static String entry(JsonNode entry, String path, Consumer<String> keys) {
        String at = path.isEmpty() ? "" : " at '" + path + "'";
        if (!entry.isObject()) {
            return "has an entry" + at + " that is not a JSON object";
        }
        if (entry.size() == 0) {
            return null;
        }
        if (entry.size() != 1 || !(entry.has("k") || entry.has("o"))) {
            return "has an entry" + at + " with members " + entry.propertyNames() + ", not just 'k' or 'o'";
        }
        JsonNode key = entry.get("k");
        if (key != null) {
            if (!key.isString() || !EntryNames.isKey(key.asString())) {
                return "has a file" + at + " whose key " + key + " is no lowercase SHA-256 hex";
            }
            keys.accept(key.asString());
            return null;
        }
        JsonNode children = entry.get("o");
        if (!children.isObject()) {
            return "has a directory" + at + " whose 'o' is not a JSON object";
        }
        for (Map.Entry<String, JsonNode> child : children.properties()) {
            String name = child.getKey();
            if (name.isEmpty()
                    || name.equals(".")
                    || name.equals("..")
                    || name.indexOf('/') >= 0
                    || name.indexOf('\0') >= 0) {
                return "has an entry named '" + name + "'" + at + " (names are not empty, '.' or '..' and hold no"
                        + " '/')";
            }
            String why = entry(child.getValue(), path.isEmpty() ? name : path + "/" + name, keys);
            if (why != null) {
                return why;
            }
        }
        return null;
    }
}
