package dev.cairn.storage.query;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Filter values as plain JSON-like Java values, so that a spec equals its JSON round trip. */
final class FilterValues {

    private FilterValues() {}

    /**
     * Integers become {@code Long}, other numbers {@code Double}, UUIDs and times their ISO text,
     * lists and maps copies of normalized values. Anything else is refused.
     */
    static Object normalize(Object value) {
        return switch (value) {
            case null -> null;
            case String s -> s;
            case Boolean b -> b;
            case Long l -> l;
            case Integer i -> i.longValue();
            case Short s -> s.longValue();
            case Byte b -> b.longValue();
            case BigInteger b -> b.longValueExact();
            case Double d -> d;
            case Float f -> Double.valueOf(f.toString());
            case BigDecimal b -> b.doubleValue();
            case UUID u -> u.toString();
            case TemporalAccessor t -> t.toString();
            case List<?> list -> {
                List<Object> copy = new ArrayList<>(list.size());
                for (Object o : list) {
                    copy.add(normalize(o));
                }
                yield Collections.unmodifiableList(copy);
            }
            case Map<?, ?> map -> {
                Map<String, Object> copy = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    if (!(e.getKey() instanceof String key)) {
                        throw new InvalidQueryException(
                                "a JSON object in a filter value has a key that is not a string: " + e.getKey());
                    }
                    copy.put(key, normalize(e.getValue()));
                }
                yield Collections.unmodifiableMap(copy);
            }
            default ->
                throw new InvalidQueryException("a filter value must be JSON-like (null, boolean, number, string,"
                        + " list, map, UUID or date-time), not "
                        + value.getClass().getName() + ": " + value);
        };
    }

    /** The JSON type name of a normalized value, as {@code jsonb_typeof} names it. */
    static String typeOf(Object value) {
        return switch (value) {
            case null -> "null";
            case String s -> "string";
            case Boolean b -> "boolean";
            case Long l -> "number";
            case Double d -> "number";
            case List<?> l -> "array";
            case Map<?, ?> m -> "object";
            default -> throw new IllegalStateException("not normalized: " + value.getClass());
        };
    }
}
