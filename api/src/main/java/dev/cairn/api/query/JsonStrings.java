package dev.cairn.api.query;

import java.util.Arrays;

/**
 * The characters of a JSON string, from its JSON text (UTF-8, quotes included) to UTF-8 without
 * escapes: what a reader of raw strings ({@link ColumnBlocks}) gets instead of JSON. A loop over
 * bytes, copying runs without a backslash at once: PostgreSQL's text of a string escapes only
 * quotes, backslashes and control characters, so a long string is mostly such runs.
 */
final class JsonStrings {

    private JsonStrings() {}

    /** Whether {@code json} is the text of a JSON string. */
    static boolean isString(byte[] json) {
        return json.length >= 2 && json[0] == '"' && json[json.length - 1] == '"';
    }

    /** The UTF-8 bytes of the string whose JSON text is {@code json} ({@link #isString}). */
    static byte[] unescape(byte[] json) {
        int end = json.length - 1;
        int slash = indexOf(json, 1, end);
        if (slash == end) {
            return Arrays.copyOfRange(json, 1, end);
        }
        byte[] out = new byte[end - 1];
        int n = 0;
        int from = 1;
        while (slash < end) {
            System.arraycopy(json, from, out, n, slash - from);
            n += slash - from;
            byte escaped = json[slash + 1];
            from = slash + 2;
            switch (escaped) {
                case 'b' -> out[n++] = '\b';
                case 'f' -> out[n++] = '\f';
                case 'n' -> out[n++] = '\n';
                case 'r' -> out[n++] = '\r';
                case 't' -> out[n++] = '\t';
                case 'u' -> {
                    int c = hex(json, from);
                    from += 4;
                    if (Character.isHighSurrogate((char) c)
                            && from + 6 <= end
                            && json[from] == '\\'
                            && json[from + 1] == 'u') {
                        int low = hex(json, from + 2);
                        if (Character.isLowSurrogate((char) low)) {
                            c = Character.toCodePoint((char) c, (char) low);
                            from += 6;
                        }
                    }
                    n = utf8(c, out, n);
                }
                default -> out[n++] = escaped; // " \ /
            }
            slash = indexOf(json, from, end);
        }
        System.arraycopy(json, from, out, n, end - from);
        n += end - from;
        return n == out.length ? out : Arrays.copyOf(out, n);
    }

    private static int indexOf(byte[] json, int from, int end) {
        for (int i = from; i < end; i++) {
            if (json[i] == '\\') {
                return i;
            }
        }
        return end;
    }

    private static int hex(byte[] json, int at) {
        int c = 0;
        for (int i = at; i < at + 4; i++) {
            c = c << 4 | Character.digit(json[i], 16);
        }
        return c;
    }

    /** Writes code point {@code c} as UTF-8 (PostgreSQL refuses lone surrogates in jsonb: none come). */
    private static int utf8(int c, byte[] out, int n) {
        if (c < 0x80) {
            out[n++] = (byte) c;
        } else if (c < 0x800) {
            out[n++] = (byte) (0xC0 | c >> 6);
            out[n++] = (byte) (0x80 | c & 0x3F);
        } else if (c < 0x10000) {
            out[n++] = (byte) (0xE0 | c >> 12);
            out[n++] = (byte) (0x80 | c >> 6 & 0x3F);
            out[n++] = (byte) (0x80 | c & 0x3F);
        } else {
            out[n++] = (byte) (0xF0 | c >> 18);
            out[n++] = (byte) (0x80 | c >> 12 & 0x3F);
            out[n++] = (byte) (0x80 | c >> 6 & 0x3F);
            out[n++] = (byte) (0x80 | c & 0x3F);
        }
        return n;
    }
}
