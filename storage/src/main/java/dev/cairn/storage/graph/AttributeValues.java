package dev.cairn.storage.graph;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.cairn.storage.hash.internal.SignificantDigits;

/**
 * Cleans values before they become attributes or extras, so that what is stored reads back
 * equal and hashes the same after a JSON round trip:
 * <ul>
 * <li>integers of any width become {@code Long} (a {@code BigInteger} must fit);</li>
 * <li>floats are rounded to 14 significant digits and stay floats ({@code -0.0} becomes
 *     {@code 0.0}, which is all PostgreSQL's numeric keeps); NaN and infinities are refused;</li>
 * <li>maps need string keys without '.', the path separator of queries; maps and lists are
 *     copied into unmodifiable ones, so a stored value cannot be changed behind the graph's
 *     back;</li>
 * <li>anything else but strings, booleans and null is refused.</li>
 * </ul>
 * Every refusal names the path of the bad value, e.g. {@code attributes.cell[0][1]}.
 */
public final class AttributeValues {

    /** Significant digits floats keep. */
    public static final int FLOAT_DIGITS = SignificantDigits.DIGITS;

    private AttributeValues() {}

    /** A cleaned, unmodifiable copy of a whole attribute map; {@code where} names it in errors. */
    public static Map<String, Object> cleanMap(Map<String, ?> map, String where) {
        @SuppressWarnings("unchecked")
        Map<String, Object> cleaned = (Map<String, Object>) clean((Object) map, where);
        return cleaned;
    }

    /** A cleaned value; {@code path} names it in errors. */
    public static Object clean(Object value, String path) {
        try {
            return clean(value, (Path) null);
        } catch (InvalidValueException e) {
            // Paths cost a string per value, so they are only built to explain a refusal.
            clean(value, new Path(null, path, -1));
            throw e;
        }
    }

    /** Where a value sits, built only when a refusal needs explaining. */
    private record Path(Path parent, String key, int index) {
        Path key(String k) {
            return new Path(this, k, -1);
        }

        Path index(int i) {
            return new Path(this, null, i);
        }

        @Override
        public String toString() {
            String here = key != null ? key : "[" + index + "]";
            if (parent == null) {
                return here;
            }
            return parent + (key != null ? "." + here : here);
        }
    }

    private static Object clean(Object value, Path path) {
        return switch (value) {
            case null -> null;
            case String s -> s;
            case Boolean b -> b;
            case Long l -> l;
            case Integer i -> i.longValue();
            case Short s -> s.longValue();
            case Byte b -> b.longValue();
            case BigInteger big -> bigInteger(big, path);
            case Double d -> cleanDouble(d, path);
            case Float f -> cleanDouble(Double.parseDouble(f.toString()), path);
            case BigDecimal big -> cleanDouble(big.doubleValue(), path);
            case Map<?, ?> map -> cleanObject(map, path);
            case List<?> list -> cleanList(list, path);
            case Object[] array -> cleanList(Arrays.asList(array), path);
            default ->
                throw new InvalidValueException(
                        path + ": a value of type " + value.getClass().getName()
                                + " cannot be stored; use a string, number, boolean, null, list or map");
        };
    }

    /** The key rule alone: a non-empty string without '.'. */
    public static String checkKey(Object key, String where) {
        if (!(key instanceof String s)) {
            throw new InvalidValueException(where + ": keys must be strings, got "
                    + (key == null ? "null" : key.getClass().getName() + " " + key));
        }
        if (s.isEmpty()) {
            throw new InvalidValueException(where + ": keys must not be empty");
        }
        if (s.indexOf('.') >= 0) {
            throw new InvalidValueException(
                    where + ": key '" + s + "' contains '.', which separates the parts of a path in queries");
        }
        return s;
    }

    private static Map<String, Object> cleanObject(Map<?, ?> map, Path path) {
        Map<String, Object> cleaned = new LinkedHashMap<>(Math.max(4, map.size() * 2));
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String key = checkKey(e.getKey(), String.valueOf(path));
            cleaned.put(key, clean(e.getValue(), path == null ? null : path.key(key)));
        }
        return Collections.unmodifiableMap(cleaned);
    }

    private static List<Object> cleanList(List<?> list, Path path) {
        Object[] cleaned = new Object[list.size()];
        for (int i = 0; i < cleaned.length; i++) {
            cleaned[i] = clean(list.get(i), path == null ? null : path.index(i));
        }
        return Collections.unmodifiableList(Arrays.asList(cleaned));
    }

    private static Long bigInteger(BigInteger big, Path path) {
        if (big.bitLength() > 63) {
            throw new InvalidValueException(path + ": integer " + big + " does not fit in 64 bits");
        }
        return big.longValue();
    }

    /** The double rounded to 14 significant digits. */
    static Double cleanDouble(double d, Object path) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new InvalidValueException(path + ": " + d + " cannot be stored; floats must be finite");
        }
        return SignificantDigits.rounded(d);
    }
}
