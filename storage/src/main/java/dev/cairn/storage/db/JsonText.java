package dev.cairn.storage.db;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * Writes cleaned attribute values (null, Boolean, Long, Double, String, List, Map) as JSON
 * text, faster than a general-purpose mapper because it knows the types it meets.
 * <p>
 * Doubles keep a fractional part in the text ({@code 2.0E14} is written
 * {@code 200000000000000.0}): PostgreSQL keeps a numeric's written scale, so the value reads
 * back as a floating-point number rather than turning into an integer.
 */
public final class JsonText {

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JsonText() {}

    /** {@code value} (maps, lists, strings, numbers, booleans, null) as JSON text. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder(256);
        write(value, out);
        return out.toString();
    }

    /** Appends {@code value} as JSON text to {@code out}. */
    public static void write(Object value, StringBuilder out) {
        write(value, out, false);
    }

    /**
     * Appends JSON text as a field of {@code COPY … FROM STDIN} text format wants it: the
     * same, with every backslash doubled. No other special character of COPY can occur,
     * since JSON escapes control characters inside strings.
     */
    public static void writeForCopy(Object value, StringBuilder out) {
        write(value, out, true);
    }

    private static void write(Object value, StringBuilder out, boolean copy) {
        switch (value) {
            case null -> out.append("null");
            case String s -> string(s, out, copy);
            case Boolean b -> out.append(b.booleanValue());
            case Long l -> out.append(l.longValue());
            case Integer i -> out.append(i.intValue());
            case Double d -> number(d, out);
            case BigInteger b -> out.append(b);
            case Map<?, ?> map -> {
                out.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    if (!first) {
                        out.append(',');
                    }
                    first = false;
                    string((String) e.getKey(), out, copy);
                    out.append(':');
                    write(e.getValue(), out, copy);
                }
                out.append('}');
            }
            case List<?> list -> {
                out.append('[');
                for (int i = 0, n = list.size(); i < n; i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    write(list.get(i), out, copy);
                }
                out.append(']');
            }
            default ->
                throw new IllegalStateException(
                        "not a cleaned JSON value: " + value.getClass().getName());
        }
    }

    private static void number(double d, StringBuilder out) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            throw new InvalidInputException("JSON has no " + d);
        }
        String s = Double.toString(d);
        int e = s.indexOf('E');
        if (e < 0 || s.charAt(e + 1) == '-') {
            out.append(s);
            return;
        }
        String plain = new BigDecimal(s).toPlainString();
        out.append(plain);
        if (plain.indexOf('.') < 0) {
            out.append(".0");
        }
    }

    private static void string(String s, StringBuilder out, boolean copy) {
        String backslash = copy ? "\\\\" : "\\";
        out.append('"');
        int start = 0;
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c != '"' && c != '\\') {
                continue;
            }
            out.append(s, start, i);
            out.append(backslash);
            switch (c) {
                case '"' -> out.append('"');
                case '\\' -> out.append(backslash);
                case '\n' -> out.append('n');
                case '\r' -> out.append('r');
                case '\t' -> out.append('t');
                default -> out.append("u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
            }
            start = i + 1;
        }
        out.append(s, start, s.length()).append('"');
    }
}
