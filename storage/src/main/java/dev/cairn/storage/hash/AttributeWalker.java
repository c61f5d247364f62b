package dev.cairn.storage.hash;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;
import java.util.UUID;

/**
 * Writes attribute values (JSON-like trees of maps, lists and scalars) in canonical form,
 * refusing anything else with an {@link UnhashableValueException} that names the type.
 */
final class AttributeWalker {

    /** Deeper than any real attribute; stops a map that contains itself before the stack does. */
    static final int MAX_DEPTH = 512;

    static final String SUPPORTED = "null, Boolean, String, UUID, Long, Integer, Short, Byte, BigInteger, "
            + "Double, Float, BigDecimal (finite), List and Map with String keys";

    private final CanonicalWriter out;

    @SuppressWarnings("unchecked")
    private Map.Entry<String, ?>[][] scratch = (Map.Entry<String, ?>[][]) new Map.Entry<?, ?>[8][];

    AttributeWalker(CanonicalWriter out) {
        this.out = out;
    }

    /** Writes a map of attributes, keys in UTF-8 order. */
    void writeMap(Map<?, ?> map) {
        writeMap(map, 0);
    }

    private void write(Object value, int depth) {
        // Ordered by how often each type occurs in real attributes.
        if (value instanceof String s) {
            out.writeString(s);
        } else if (value instanceof Double d) {
            writeFinite(d);
        } else if (value instanceof Long l) {
            out.writeInteger(l);
        } else if (value instanceof Map<?, ?> m) {
            writeMap(m, depth + 1);
        } else if (value instanceof List<?> l) {
            writeList(l, depth + 1);
        } else if (value instanceof Boolean b) {
            out.writeBoolean(b);
        } else if (value instanceof Integer i) {
            out.writeInteger(i);
        } else if (value == null) {
            out.writeNull();
        } else if (value instanceof Float f) {
            writeFinite(f);
        } else if (value instanceof Short s) {
            out.writeInteger(s);
        } else if (value instanceof Byte b) {
            out.writeInteger(b);
        } else if (value instanceof BigInteger b) {
            out.writeInteger(b);
        } else if (value instanceof BigDecimal b) {
            out.writeFloat(b);
        } else if (value instanceof UUID u) {
            out.writeUuid(u);
        } else {
            throw new UnhashableValueException(
                    "unsupported type " + value.getClass().getName() + " (supported: " + SUPPORTED + ")");
        }
    }

    private void writeFinite(double d) {
        if (!Double.isFinite(d)) {
            throw new UnhashableValueException("the float " + d + " is not finite; NaN and infinities are refused");
        }
        out.writeFloat(d);
    }

    private void writeList(List<?> list, int depth) {
        checkDepth(depth);
        int size = list.size();
        out.writeListHeader(size);
        if (list instanceof RandomAccess) {
            for (int i = 0; i < size; i++) {
                try {
                    write(list.get(i), depth);
                } catch (UnhashableValueException e) {
                    throw e.inside("[" + i + "]");
                }
            }
        } else {
            int i = 0;
            for (Object element : list) {
                try {
                    write(element, depth);
                } catch (UnhashableValueException e) {
                    throw e.inside("[" + i + "]");
                }
                i++;
            }
        }
    }

    private void writeMap(Map<?, ?> map, int depth) {
        checkDepth(depth);
        Map.Entry<String, ?>[] entries = sortedEntries(map, depth);
        int size = map.size();
        out.writeMapHeader(size);
        for (int i = 0; i < size; i++) {
            Map.Entry<String, ?> entry = entries[i];
            String key = entry.getKey();
            try {
                out.writeKey(key);
                write(entry.getValue(), depth);
            } catch (UnhashableValueException e) {
                throw e.insideKey(key);
            }
        }
    }

    /**
     * The map's entries in key order, in a scratch array kept per depth: a map's entries are
     * written before any sibling map at the same depth is read, so one array per level is
     * enough and the walk allocates none. (JDK maps hand out a distinct entry per element.)
     */
    @SuppressWarnings("unchecked")
    private Map.Entry<String, ?>[] sortedEntries(Map<?, ?> map, int depth) {
        if (depth >= scratch.length) {
            scratch = Arrays.copyOf(scratch, Math.max(depth + 1, scratch.length * 2));
        }
        Map.Entry<String, ?>[] entries = scratch[depth];
        int size = map.size();
        if (entries == null || entries.length < size) {
            entries = (Map.Entry<String, ?>[]) new Map.Entry<?, ?>[Math.max(size, 8)];
            scratch[depth] = entries;
        }
        int n = 0;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (n == size) {
                throw new IllegalStateException("a map grew while it was being hashed");
            }
            if (!(entry.getKey() instanceof String)) {
                Object key = entry.getKey();
                throw new UnhashableValueException("map key "
                        + (key == null
                                ? "null"
                                : "'" + key + "' of type " + key.getClass().getName()) + " is not a String");
            }
            entries[n++] = (Map.Entry<String, ?>) entry;
        }
        if (n != size) {
            throw new IllegalStateException("a map shrank while it was being hashed");
        }
        Utf8Order.sortByKey(entries, size);
        return entries;
    }

    private static void checkDepth(int depth) {
        if (depth > MAX_DEPTH) {
            throw new UnhashableValueException(
                    "nested more than " + MAX_DEPTH + " levels deep (does a map or list contain itself?)");
        }
    }
}
