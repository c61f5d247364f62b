package dev.cairn.api.query;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import tools.jackson.core.SerializableString;

/**
 * A JSON value's UTF-8 text for {@code JsonGenerator.writeRawValue}, which copies it into the
 * generator's buffer as it is: the database's text of a {@code jsonb} value goes to the answer
 * without being decoded into maps and lists and encoded again. Only the unquoted forms are asked
 * for a raw value; the quoted ones are there for the interface.
 */
final class RawJson implements SerializableString {

    private final byte[] utf8;

    RawJson(byte[] utf8) {
        this.utf8 = utf8;
    }

    @Override
    public String getValue() {
        return new String(utf8, StandardCharsets.UTF_8);
    }

    @Override
    public int charLength() {
        return getValue().length();
    }

    @Override
    public char[] asQuotedChars() {
        return quoted().toCharArray();
    }

    @Override
    public byte[] asUnquotedUTF8() {
        return utf8;
    }

    @Override
    public byte[] asQuotedUTF8() {
        return quoted().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int offset) {
        return append(asQuotedUTF8(), buffer, offset);
    }

    @Override
    public int appendQuoted(char[] buffer, int offset) {
        return append(asQuotedChars(), buffer, offset);
    }

    @Override
    public int appendUnquotedUTF8(byte[] buffer, int offset) {
        return append(utf8, buffer, offset);
    }

    @Override
    public int appendUnquoted(char[] buffer, int offset) {
        return append(getValue().toCharArray(), buffer, offset);
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) throws IOException {
        byte[] quoted = asQuotedUTF8();
        out.write(quoted);
        return quoted.length;
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
        out.write(utf8);
        return utf8.length;
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) {
        return put(asQuotedUTF8(), buffer);
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer buffer) {
        return put(utf8, buffer);
    }

    private String quoted() {
        return RowJson.MAPPER.writeValueAsString(getValue());
    }

    /** Copies {@code from} into {@code buffer} at {@code offset}: its length, or -1 where it does not fit. */
    private static int append(byte[] from, byte[] buffer, int offset) {
        if (offset + from.length > buffer.length) {
            return -1;
        }
        System.arraycopy(from, 0, buffer, offset, from.length);
        return from.length;
    }

    private static int append(char[] from, char[] buffer, int offset) {
        if (offset + from.length > buffer.length) {
            return -1;
        }
        System.arraycopy(from, 0, buffer, offset, from.length);
        return from.length;
    }

    private static int put(byte[] from, ByteBuffer buffer) {
        if (from.length > buffer.remaining()) {
            return -1;
        }
        buffer.put(from);
        return from.length;
    }
}
