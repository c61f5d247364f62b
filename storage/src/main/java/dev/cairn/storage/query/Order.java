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

    /** Ascending by a field of vertex {@code tag}. */
    public static Order asc(String tag, String field) {
        return new Order(tag, field, null, false);
    }

    /** Descending by a field of vertex {@code tag}. */
    public static Order desc(String tag, String field) {
        return new Order(tag, field, null, true);
    }

    /** The same key, its field cast (to order JSON values by number, not text). */
    public Order as(Cast cast) {
        return new Order(tag, field, cast, descending);
    }
}
