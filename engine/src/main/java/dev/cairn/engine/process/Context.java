package dev.cairn.engine.process;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.Node;

/**
 * A work chain's memory between steps, saved in its checkpoint. Values are nodes or plain
 * JSON values (strings, numbers, booleans, lists and maps of them); anything else is
 * refused when it is put, not months later when a checkpoint fails to load.
 */
public final class Context {

    static final String NODE_KEY = "@node";

    private final Map<String, Object> values = new LinkedHashMap<>();

    /** An empty context. The engine makes a work chain's; this is for tests of a plugin's steps. */
    public Context() {}

    /**
     * Keeps {@code value} under {@code key}, replacing what was there. Lists and maps are copied
     * (unmodifiable), whole numbers become {@code Long}; a value a checkpoint cannot hold is
     * refused with an {@code InvalidInputException} naming the key.
     *
     * @return this context, for chaining
     */
    public Context put(String key, Object value) {
        values.put(Objects.requireNonNull(key, "key"), checked(value, key));
        return this;
    }

    /**
     * Appends to the list under {@code key}, creating it; fails when the key holds something
     * other than a list.
     *
     * @return this context, for chaining
     */
    public Context append(String key, Object value) {
        Object existing = values.get(key);
        List<Object> list = new ArrayList<>();
        if (existing instanceof List<?> l) {
            list.addAll(l);
        } else if (existing != null) {
            throw new IllegalStateException("context '" + key + "' holds a "
                    + existing.getClass().getSimpleName() + ", not a list to append to");
        }
        list.add(checked(value, key));
        values.put(key, Collections.unmodifiableList(list));
        return this;
    }

    /** Whether anything (even null) was put under {@code key}. */
    public boolean has(String key) {
        return values.containsKey(key);
    }

    /** The value under {@code key} as it was kept (see {@link #put}), or null when there is none. */
    public Object get(String key) {
        return values.get(key);
    }

    /** Forgets {@code key}; nothing happens when it is absent. */
    public Context remove(String key) {
        values.remove(key);
        return this;
    }

    /** The node under {@code key}, of the given class; fails naming the key when it is absent or of another class. */
    public <T extends Node> T node(String key, Class<T> type) {
        Object v = require(key);
        if (!type.isInstance(v)) {
            throw new IllegalStateException(
                    "context '" + key + "' holds " + describe(v) + ", not a " + type.getSimpleName());
        }
        return type.cast(v);
    }

    /** The nodes appended under {@code key}, each of the given class; empty when nothing was appended. */
    public <T extends Node> List<T> nodes(String key, Class<T> type) {
        Object v = values.get(key);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> list)) {
            throw new IllegalStateException("context '" + key + "' holds " + describe(v) + ", not a list");
        }
        List<T> typed = new ArrayList<>(list.size());
        for (Object o : list) {
            if (!type.isInstance(o)) {
                throw new IllegalStateException(
                        "context '" + key + "' holds " + describe(o) + ", not a " + type.getSimpleName());
            }
            typed.add(type.cast(o));
        }
        return typed;
    }

    /** The whole number under {@code key}; fails naming the key when there is none. */
    public long getLong(String key) {
        return ((Number) require(key)).longValue();
    }

    /** The number under {@code key}, as a double; fails naming the key when there is none. */
    public double getDouble(String key) {
        return ((Number) require(key)).doubleValue();
    }

    /** The string under {@code key}; fails naming the key when there is none. */
    public String getString(String key) {
        return (String) require(key);
    }

    /** The boolean under {@code key}; fails naming the key when there is none. */
    public boolean getBoolean(String key) {
        return (Boolean) require(key);
    }

    private Object require(String key) {
        Object v = values.get(key);
        if (v == null) {
            throw new IllegalStateException("the context has no '" + key + "'; it has " + values.keySet());
        }
        return v;
    }

    /**
     * The context as JSON values, nodes replaced by {"@node": id} (they must be stored): the
     * form the engine keeps in a checkpoint. Plugins have no need of it.
     */
    public Map<String, Object> toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        values.forEach((k, v) -> json.put(k, encode(v)));
        return json;
    }

    /** The ids of the nodes a JSON context refers to, so the engine can load them in one go. */
    public static List<Long> nodeIds(Map<String, Object> json) {
        List<Long> ids = new ArrayList<>();
        collect(json, ids);
        return ids;
    }

    /**
     * A context read back from JSON, its node references resolved by {@code nodes}: how the engine
     * restores a checkpoint.
     */
    public static Context fromJson(Map<String, Object> json, Function<Long, Node> nodes) {
        Context c = new Context();
        json.forEach((k, v) -> c.values.put(k, decode(v, nodes)));
        return c;
    }

    private static Object checked(Object value, String key) {
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Node) {
            return value;
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (!Double.isFinite(d)) {
                throw new InvalidInputException("context '" + key + "': " + d + " is not a finite number");
            }
            return d;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            for (Object o : list) {
                copy.add(checked(o, key));
            }
            return Collections.unmodifiableList(copy);
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            for (var e : map.entrySet()) {
                if (!(e.getKey() instanceof String s)) {
                    throw new InvalidInputException(
                            "context '" + key + "': map keys must be strings, got " + e.getKey());
                }
                if (s.equals(NODE_KEY)) {
                    throw new InvalidInputException("context '" + key + "': the key " + NODE_KEY + " is reserved");
                }
                copy.put(s, checked(e.getValue(), key));
            }
            return Collections.unmodifiableMap(copy);
        }
        throw new InvalidInputException(
                "context '" + key + "' cannot hold a " + value.getClass().getName()
                        + ": a checkpoint keeps nodes, strings, numbers, booleans, lists and maps");
    }

    private static Object encode(Object v) {
        if (v instanceof Node n) {
            if (!n.isStored()) {
                throw new IllegalStateException(n.describe() + " in the context is not stored");
            }
            return Map.of(NODE_KEY, n.id());
        }
        if (v instanceof List<?> l) {
            return l.stream().map(Context::encode).toList();
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put((String) k, encode(x)));
            return out;
        }
        return v;
    }

    private static void collect(Object v, List<Long> ids) {
        if (v instanceof Map<?, ?> m) {
            if (m.size() == 1 && m.get(NODE_KEY) instanceof Number id) {
                ids.add(id.longValue());
            } else {
                m.values().forEach(x -> collect(x, ids));
            }
        } else if (v instanceof List<?> l) {
            l.forEach(x -> collect(x, ids));
        }
    }

    private static Object decode(Object v, Function<Long, Node> nodes) {
        if (v instanceof Map<?, ?> m) {
            if (m.size() == 1 && m.get(NODE_KEY) instanceof Number id) {
                return nodes.apply(id.longValue());
            }
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put((String) k, decode(x, nodes)));
            return Collections.unmodifiableMap(out);
        }
        if (v instanceof List<?> l) {
            return l.stream().map(x -> decode(x, nodes)).toList();
        }
        if (v instanceof Integer i) {
            return i.longValue();
        }
        return v;
    }

    private static String describe(Object v) {
        return v instanceof Node n
                ? n.describe()
                : v == null ? "nothing" : "a " + v.getClass().getSimpleName();
    }
}
