package dev.cairn.storage.query;

import java.nio.charset.StandardCharsets;

/**
 * A string at a JSON path left as the database's UTF-8 bytes of its characters, not made a Java
 * {@code String}: what {@link GraphQuery#withJsonAsText()} reads for a JSON string, for writers that
 * write it as a JSON string again (escaping as they copy) or as raw text.
 */
public final class UndecodedString {

    private final byte[] utf8;

    UndecodedString(byte[] utf8) {
        this.utf8 = utf8;
    }

    /** The string's characters as UTF-8, not escaped; the array is this value's own: do not change it. */
    public byte[] utf8() {
        return utf8;
    }

    @Override
    public String toString() {
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
