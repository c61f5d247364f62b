package dev.cairn.storage.query;

import java.util.Objects;

/**
 * One key of a query's order: a field of a vertex, ascending or descending, with a cast for
 * JSON paths (without one, JSON values order as {@code jsonb} does: null, strings, numbers,
 * booleans, arrays, objects).
 */
public record Order(String tag, String field, Cast cast, boolean descending) {

    public Order {
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(field, "field");
    }

    public static Order asc(String tag, String field) {
        return new Order(tag, field, null, false);
    }

    public static Order desc(String tag, String field) {
        return new Order(tag, field, null, true);
    }

    public Order as(Cast cast) {
        return new Order(tag, field, cast, descending);
    }
}
