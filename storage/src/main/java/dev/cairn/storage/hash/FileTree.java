package dev.cairn.storage.hash;

import java.util.Map;
import java.util.regex.Pattern;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * A node's file tree in its {@code repository_metadata} form: a directory is
 * {@code {"o": {name: entry, ...}}}, or {@code {}} when empty; a file is
 * {@code {"k": "<sha256 hex>"}}. Validated once, then written with every directory in the
 * one form {@code {"o": {...}}} so that {@code {}} and {@code {"o": {}}} hash alike.
 */
final class FileTree {

    private static final String OBJECTS = "o";
    private static final String KEY = "k";
    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");
    private static final String ENTRY_FORMS =
            "{\"k\": \"<sha256 hex>\"} (a file), {\"o\": {...}} (a directory) or {} (an empty directory)";

    private FileTree() {}

    /** Checks the tree; throws IllegalArgumentException naming the offending path. */
    static void validate(Map<String, Object> root) {
        if (root == null) {
            throw new InvalidInputException("files must not be null: pass an empty map for a node without files");
        }
        if (!isDirectory(root)) {
            throw new InvalidInputException(
                    "files: the root must be a directory {\"o\": {...}} or {}, not " + describe(root));
        }
        validateDirectory(root, "", 0);
    }

    private static void validateDirectory(Map<?, ?> directory, String path, int depth) {
        if (depth > AttributeWalker.MAX_DEPTH) {
            throw new InvalidInputException(
                    "files: '" + path + "' is nested more than " + AttributeWalker.MAX_DEPTH + " directories deep");
        }
        Object objects = directory.get(OBJECTS);
        if (objects == null) {
            return; // {} is an empty directory
        }
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) objects).entrySet()) {
            if (!(entry.getKey() instanceof String name)
                    || name.isEmpty()
                    || name.indexOf('/') >= 0
                    || name.equals(".")
                    || name.equals("..")
                    || !CanonicalWriter.isWellFormed(name)) {
                throw new InvalidInputException("files: '" + path + "' has an entry named "
                        + (entry.getKey() instanceof String s ? "'" + s + "'" : String.valueOf(entry.getKey()))
                        + "; a name is a non-empty string without '/', other than '.' and '..', "
                        + "with no unpaired surrogate");
            }
            String child = path.isEmpty() ? name : path + "/" + name;
            if (!(entry.getValue() instanceof Map<?, ?> value)) {
                throw new InvalidInputException(
                        "files: '" + child + "' must be " + ENTRY_FORMS + ", not " + describe(entry.getValue()));
            }
            if (value.size() == 1 && value.get(KEY) instanceof String key) {
                if (!SHA256_HEX.matcher(key).matches()) {
                    throw new InvalidInputException("files: '" + child + "' has key '" + key
                            + "', which is not a lowercase SHA-256 hex key of 64 characters");
                }
            } else if (isDirectory(value)) {
                validateDirectory(value, child, depth + 1);
            } else {
                throw new InvalidInputException(
                        "files: '" + child + "' must be " + ENTRY_FORMS + ", not " + describe(value));
            }
        }
    }

    private static boolean isDirectory(Map<?, ?> map) {
        return map.isEmpty() || map.size() == 1 && map.get(OBJECTS) instanceof Map<?, ?>;
    }

    private static String describe(Object value) {
        return value == null
                ? "null"
                : value instanceof Map<?, ?> m
                        ? "a map with keys " + m.keySet()
                        : value.getClass().getName() + " " + value;
    }

    /** Writes a validated tree. */
    static void write(CanonicalWriter out, Map<?, ?> root) {
        writeDirectory(out, root);
    }

    @SuppressWarnings("unchecked")
    private static void writeDirectory(CanonicalWriter out, Map<?, ?> directory) {
        Map<String, Map<String, ?>> objects = (Map<String, Map<String, ?>>) directory.get(OBJECTS);
        out.writeMapHeader(1);
        out.writeKey(OBJECTS);
        if (objects == null) {
            out.writeMapHeader(0);
            return;
        }
        Map.Entry<String, Map<String, ?>>[] entries =
                (Map.Entry<String, Map<String, ?>>[]) objects.entrySet().toArray(new Map.Entry<?, ?>[0]);
        Utf8Order.sortByKey(entries);
        out.writeMapHeader(entries.length);
        for (Map.Entry<String, Map<String, ?>> entry : entries) {
            out.writeKey(entry.getKey());
            Object key = entry.getValue().get(KEY);
            if (key != null) {
                out.writeMapHeader(1);
                out.writeKey(KEY);
                out.writeString((String) key);
            } else {
                writeDirectory(out, entry.getValue());
            }
        }
    }
}
