package dev.cairn.storage.query;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Aggregate functions computed in the database. When a query projects any aggregate, its other
 * projections become the {@code GROUP BY} keys: project {@code node_type} and {@code count(id)}
 * to count nodes per type.
 */
public enum Aggregate {
    COUNT,
    MIN,
    MAX,
    SUM,
    AVG;

    /** The aggregate's name in a query's JSON form: {@code count}, {@code sum}, … */
    public String jsonName() {
        return name().toLowerCase(Locale.ROOT);
    }

    static List<String> jsonNames() {
        return Arrays.stream(values()).map(Aggregate::jsonName).toList();
    }

    static Aggregate fromJsonName(String name, String where) {
        for (Aggregate a : values()) {
            if (a.jsonName().equals(name)) {
                return a;
            }
        }
        throw new InvalidQueryException(
                where + ": unknown aggregate function '" + name + "'; functions are " + jsonNames());
    }
}
