package dev.cairn.storage.query;

import java.nio.charset.StandardCharsets;

/**
 * A JSON string of a row as its characters in UTF-8, unescaped: what {@link GraphQuery#withJsonAsText()}
 * reads for a projected path that holds a string. The database sends such a string as its
 * characters rather than as JSON text, because escaping a long string character by character is
 * most of the database's work on it; a writer that sends JSON escapes it again, one that sends
 * raw strings sends the bytes as they are.
 */
public final class UndecodedString {

    private final byte[] utf8;

    UndecodedString(byte[] utf8) {
        this.utf8 = utf8;
    }

    /** The string's characters as UTF-8; the array is this value's own: do not change it. */
    public byte[] utf8() {
        return utf8;
    }

    @Override
    public String toString() {
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
