package dev.cairn.storage.query;

import java.util.Objects;

/**
 * One value a query returns per row: a column, a JSON path (optionally cast), {@code *} for the
 * whole row as a record, or an aggregate of a field.
 *
 * @param field     a column, a JSON path such as {@code attributes.cell}, or {@code *}
 * @param cast      how to read a JSON value, or {@code null} for the JSON value itself
 * @param aggregate an aggregate function, or {@code null}
 */
public record Projection(String field, Cast cast, Aggregate aggregate) {

    public static final String ALL = "*";

    public Projection {
        Objects.requireNonNull(field, "field");
    }

    /** A field as stored ({@link #ALL} for every column of the vertex). */
    public static Projection of(String field) {
        return new Projection(field, null, null);
    }

    /** A field cast to a type: a value inside attributes or extras is JSON until cast. */
    public static Projection of(String field, Cast cast) {
        return new Projection(field, cast, null);
    }

    /** The count of a field's values. */
    public static Projection count(String field) {
        return new Projection(field, null, Aggregate.COUNT);
    }

    /** An aggregate of a field's values. */
    public static Projection aggregate(Aggregate aggregate, String field) {
        return new Projection(field, null, aggregate);
    }

    /** The same projection, cast. */
    public Projection as(Cast cast) {
        return new Projection(field, cast, aggregate);
    }

    /** The name a {@link Row} finds this value by: the field, or {@code count(id)} for an aggregate. */
    public String key() {
        return aggregate == null ? field : aggregate.jsonName() + "(" + field + ")";
    }
}
