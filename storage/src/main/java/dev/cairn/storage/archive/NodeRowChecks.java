package dev.cairn.storage.archive;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.graph.NodeTypes;

/**
 * The checks of one node row of an archive, on the row as parsed: each field of the right JSON type and
 * form, file names that stay inside the node's folder, object keys that are keys, and, for a process, a
 * type this Cairn reads and a sealed state. The same rules, and the same words, as {@link RowChecks}
 * applies to the other parts in the database; the node part is checked as it streams, since every row
 * is parsed anyway for its hash.
 */
final class NodeRowChecks {

    private static final Pattern UUID = Pattern.compile(unquote(RowChecks.UUID));
    private static final Pattern TIME = Pattern.compile(unquote(RowChecks.TIME));
    private static final Pattern NODE_TYPE = Pattern.compile("^(data|process)\\.([A-Za-z0-9_]+\\.)+$");
    private static final Pattern OBJECT_KEY = Pattern.compile("^[0-9a-f]{64}$");

    /** The process types this Cairn reads: a process of another cannot be imported. */
    private final Set<String> processTypes =
            NodeTypes.known().stream().filter(t -> t.startsWith("process.")).collect(Collectors.toSet());

    /** What is wrong with {@code row} (a parsed JSON value), or null. */
    String problem(Object row) {
        if (!(row instanceof Map<?, ?> doc)) {
            return "the row is a JSON " + type(row) + ", not an object";
        }
        Object uuid = doc.get("uuid");
        if (!(uuid instanceof String u) || !UUID.matcher(u).matches()) {
            return "uuid is " + shown(doc, "uuid") + ", not a uuid";
        }
        Object nodeType = doc.get("node_type");
        if (nodeType == null || !NODE_TYPE.matcher(text(nodeType)).matches()) {
            return "node type "
                    + (nodeType == null ? "null" : "'" + text(nodeType).replace("'", "''") + "'")
                    + " is malformed: it is dotted, starts with data. or process. and ends with a dot, e.g."
                    + " data.core.int.Int.";
        }
        for (String field : List.of("ctime", "mtime")) {
            Object time = doc.get(field);
            if (time == null || !TIME.matcher(text(time)).matches()) {
                return field + " is " + shown(doc, field) + ", not an ISO 8601 time such as 2026-11-24T12:00:00Z";
            }
        }
        if (!(doc.get("user") instanceof String)) {
            return "user is " + shown(doc, "user") + ", not text";
        }
        for (String field : List.of("attributes", "extras", "repository_metadata")) {
            Object value = doc.get(field);
            if (value != null && !(value instanceof Map)) {
                return field + " is a JSON " + type(value) + ", not an object";
            }
        }
        String badName = badName(doc.get("repository_metadata"));
        if (badName != null) {
            return "node " + uuid + " has a file named " + JsonCodec.write(badName)
                    + ": names are neither empty, . nor .., and hold no /";
        }
        Object badKey = badKey(doc.get("repository_metadata"));
        if (badKey != null) {
            return "node " + uuid + " names object key " + JsonCodec.write(badKey) + ", not 64 lowercase hex digits";
        }
        String type = (String) nodeType;
        if (type.startsWith("process.")) {
            if (!processTypes.contains(type)) {
                return "node " + uuid + " is a process of type " + type + ", which this Cairn cannot read";
            }
            Object sealed = doc.get("attributes") instanceof Map<?, ?> a ? a.get("sealed") : null;
            if (!Boolean.TRUE.equals(sealed) && !"true".equals(sealed)) {
                return "node " + uuid + " is a process that is not sealed: an archive holds finished provenance only";
            }
        }
        return null;
    }

    /** A name in a file tree ({@code "o"} maps, at any depth) that is empty, . or .., or holds a /. */
    private static String badName(Object value) {
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if ("o".equals(e.getKey())) {
                    String found = badNameIn(e.getValue());
                    if (found != null) {
                        return found;
                    }
                }
                String found = badName(e.getValue());
                if (found != null) {
                    return found;
                }
            }
        } else if (value instanceof List<?> list) {
            for (Object item : list) {
                String found = badName(item);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static String badNameIn(Object folder) {
        if (folder instanceof Map<?, ?> entries) {
            for (Object key : entries.keySet()) {
                String name = (String) key;
                if (name.isEmpty() || name.equals(".") || name.equals("..") || name.indexOf('/') >= 0) {
                    return name;
                }
            }
        } else if (folder instanceof List<?> list) {
            for (Object item : list) {
                String found = badNameIn(item);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /** A {@code "k"} value, at any depth, that is not an object key: text not of 64 hex digits, a number, a boolean, a list. */
    private static Object badKey(Object value) {
        if (value instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if ("k".equals(e.getKey()) && notAKey(e.getValue())) {
                    return e.getValue();
                }
                Object found = badKey(e.getValue());
                if (found != null) {
                    return found;
                }
            }
        } else if (value instanceof List<?> list) {
            for (Object item : list) {
                Object found = badKey(item);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static boolean notAKey(Object k) {
        return k instanceof String s
                ? !OBJECT_KEY.matcher(s).matches()
                : k instanceof Number || k instanceof Boolean || k instanceof List;
    }

    /** The field as PostgreSQL's {@code ->>} gives it: a string's text, any other value's JSON. */
    static String text(Object value) {
        return value instanceof String s ? s : JsonCodec.write(value);
    }

    /** The field as JSON, or {@code missing}. */
    private static String shown(Map<?, ?> doc, String field) {
        return doc.containsKey(field) ? JsonCodec.write(doc.get(field)) : "missing";
    }

    /** The JSON type's name, as {@code jsonb_typeof} gives it. */
    static String type(Object value) {
        return switch (value) {
            case null -> "null";
            case Map<?, ?> m -> "object";
            case List<?> l -> "array";
            case String s -> "string";
            case Boolean b -> "boolean";
            default -> "number";
        };
    }

    /** The SQL literal's text: RowChecks' patterns are SQL strings. */
    private static String unquote(String literal) {
        return literal.substring(1, literal.length() - 1);
    }
}
