package dev.cairn.storage.query;

import java.util.Arrays;
import java.util.List;

/**
 * The SQL type a JSON value is read as, for projecting and ordering. A value of another JSON
 * type reads as {@code null} rather than failing the query: {@code attributes.x} cast to
 * {@link #FLOAT} is {@code null} where {@code x} is a string.
 */
public enum Cast {
    /** Numbers as {@code double precision}. */
    FLOAT("f"),
    /** Numbers as {@code bigint}, rounded. */
    INTEGER("i"),
    /** Strings, numbers and booleans as their text; strings without quotes. */
    TEXT("t"),
    /** Booleans. */
    BOOLEAN("b"),
    /** Strings holding an ISO-8601 date and time, as {@code timestamptz}; a malformed one fails the query. */
    DATE("d"),
    /** The JSON value itself (the default). */
    JSON("j");

    private final String code;

    Cast(String code) {
        this.code = code;
    }

    /** The one-letter code of the JSON form. */
    public String code() {
        return code;
    }

    static List<String> codes() {
        return Arrays.stream(values()).map(Cast::code).toList();
    }

    static Cast fromCode(String code, String where) {
        for (Cast c : values()) {
            if (c.code.equals(code)) {
                return c;
            }
        }
        throw new InvalidQueryException(where + ": unknown cast '" + code + "'; casts are " + codes()
                + " (float, integer, text, boolean, date, json)");
    }
}
