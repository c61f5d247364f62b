package dev.cairn.storage.query;

import java.nio.charset.StandardCharsets;

/**
 * A JSON value of a row left as the database's text of it (UTF-8), not decoded: what
 * {@link GraphQuery#withJsonAsText()} reads, for writers that send JSON on as JSON and would
 * otherwise decode every value only to encode it again. The text is PostgreSQL's output of
 * {@code jsonb}, so it is one well-formed JSON value.
 */
public final class UndecodedJson {

    private final byte[] utf8;

    UndecodedJson(byte[] utf8) {
        this.utf8 = utf8;
    }

    /** The value's JSON text as UTF-8; the array is this value's own: do not change it. */
    public byte[] utf8() {
        return utf8;
    }

    @Override
    public String toString() {
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
