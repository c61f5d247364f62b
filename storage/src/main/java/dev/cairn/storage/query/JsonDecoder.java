package dev.cairn.storage.query;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.core.io.NumberInput;

/**
 * JSON text (UTF-8 bytes, as the database sends {@code jsonb}) to the plain Java values of
 * {@link dev.cairn.storage.db.JsonCodec}: maps, lists, {@code Long}, {@code Double},
 * {@code String}, {@code Boolean} and {@code null}, with integers beyond {@code long} as
 * {@link BigInteger}. Large projections spend most of their time here, so it reads the bytes
 * directly: numbers without an intermediate string where the result is exact (Clinger's fast
 * path: a mantissa of at most 2^53 and a power of ten up to 22), ASCII strings as Latin-1, and object keys
 * from a small cache since the same few keys repeat in every row.
 */
final class JsonDecoder {

    private static final double[] POWERS_OF_TEN = new double[23];
    private static final int KEY_CACHE = 1024;
    // Racy but safe: Strings are immutable and a miss only costs an allocation.
    private static final String[] KEYS = new String[KEY_CACHE];

    static {
        double p = 1;
        for (int k = 0; k < POWERS_OF_TEN.length; k++, p *= 10) {
            POWERS_OF_TEN[k] = p;
        }
    }

    private final byte[] b;
    private int i;
    private Object[] scratch = new Object[64];
    private int scratchTop;

    private JsonDecoder(byte[] json) {
        this.b = json;
    }

    static Object decode(byte[] json) {
        if (json == null) {
            return null;
        }
        JsonDecoder d = new JsonDecoder(json);
        Object value = d.value();
        d.skipSpace();
        if (d.i != json.length) {
            throw d.error("end of input");
        }
        return value;
    }

    private Object value() {
        skipSpace();
        if (i >= b.length) {
            throw error("a value");
        }
        return switch (b[i]) {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object() {
        i++;
        Map<String, Object> map = new LinkedHashMap<>();
        skipSpace();
        if (peek() == '}') {
            i++;
            return map;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("a key");
            }
            String key = key();
            skipSpace();
            expect(':');
            map.put(key, value());
            skipSpace();
            byte c = next();
            if (c == '}') {
                return map;
            }
            if (c != ',') {
                throw error("',' or '}'");
            }
        }
    }

    private List<Object> array() {
        i++;
        skipSpace();
        if (peek() == ']') {
            i++;
            return new ArrayList<>(0);
        }
        // elements go on a shared stack first, so the list is allocated once at its size
        int base = scratchTop;
        while (true) {
            Object element = value();
            if (scratchTop == scratch.length) {
                scratch = Arrays.copyOf(scratch, scratch.length * 2);
            }
            scratch[scratchTop++] = element;
            skipSpace();
            byte c = next();
            if (c == ']') {
                break;
            }
            if (c != ',') {
                throw error("',' or ']'");
            }
        }
        ArrayList<Object> list = new ArrayList<>(scratchTop - base);
        for (int k = base; k < scratchTop; k++) {
            list.add(scratch[k]);
            scratch[k] = null;
        }
        scratchTop = base;
        return list;
    }

    private String key() {
        int start = i + 1;
        int hash = 0;
        int k = start;
        while (k < b.length && b[k] != '"' && b[k] != '\\' && b[k] >= 0) {
            hash = 31 * hash + b[k++];
        }
        if (k >= b.length || b[k] != '"') {
            return string();
        }
        int length = k - start;
        int slot = (hash ^ (hash >>> 16)) & (KEY_CACHE - 1);
        String cached = KEYS[slot];
        i = k + 1;
        if (cached != null && sameAscii(cached, start, length)) {
            return cached;
        }
        String key = new String(b, start, length, StandardCharsets.ISO_8859_1);
        KEYS[slot] = key;
        return key;
    }

    private boolean sameAscii(String s, int start, int length) {
        if (s.length() != length) {
            return false;
        }
        for (int k = 0; k < length; k++) {
            if (s.charAt(k) != b[start + k]) {
                return false;
            }
        }
        return true;
    }

    private String string() {
        int start = ++i;
        boolean ascii = true;
        while (i < b.length) {
            byte c = b[i];
            if (c == '"') {
                String s =
                        new String(b, start, i - start, ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
                i++;
                return s;
            }
            if (c == '\\') {
                return escapedString(start);
            }
            if (c < 0) {
                ascii = false;
            }
            i++;
        }
        throw error("the end of a string");
    }

    private String escapedString(int start) {
        StringBuilder s = new StringBuilder().append(new String(b, start, i - start, StandardCharsets.UTF_8));
        int run = i;
        while (i < b.length) {
            byte c = b[i];
            if (c == '"') {
                s.append(new String(b, run, i - run, StandardCharsets.UTF_8));
                i++;
                return s.toString();
            }
            if (c != '\\') {
                i++;
                continue;
            }
            s.append(new String(b, run, i - run, StandardCharsets.UTF_8));
            if (i + 1 >= b.length) {
                throw error("an escape");
            }
            byte e = b[i + 1];
            i += 2;
            switch (e) {
                case '"', '\\', '/' -> s.append((char) e);
                case 'b' -> s.append('\b');
                case 'f' -> s.append('\f');
                case 'n' -> s.append('\n');
                case 'r' -> s.append('\r');
                case 't' -> s.append('\t');
                case 'u' -> {
                    if (i + 4 > b.length) {
                        throw error("four hex digits");
                    }
                    s.append((char) Integer.parseInt(new String(b, i, 4, StandardCharsets.ISO_8859_1), 16));
                    i += 4;
                }
                default -> throw error("a valid escape");
            }
            run = i;
        }
        throw error("the end of a string");
    }

    private Object number() {
        int start = i;
        boolean negative = peek() == '-';
        if (negative) {
            i++;
        }
        long mantissa = 0;
        int digits = 0;
        int exponent = 0;
        boolean integral = true;
        while (i < b.length && isDigit(b[i])) {
            mantissa = mantissa * 10 + (b[i++] - '0');
            if (mantissa != 0 || digits > 0) {
                digits++;
            }
        }
        if (i == start + (negative ? 1 : 0)) {
            throw error("a value");
        }
        if (i < b.length && b[i] == '.') {
            integral = false;
            i++;
            while (i < b.length && isDigit(b[i])) {
                mantissa = mantissa * 10 + (b[i++] - '0');
                if (mantissa != 0 || digits > 0) {
                    digits++;
                }
                exponent--;
            }
        }
        if (i < b.length && (b[i] == 'e' || b[i] == 'E')) {
            integral = false;
            i++;
            boolean minus = false;
            if (i < b.length && (b[i] == '+' || b[i] == '-')) {
                minus = b[i++] == '-';
            }
            int e = 0;
            int expStart = i;
            while (i < b.length && isDigit(b[i]) && e < 100_000) {
                e = e * 10 + (b[i++] - '0');
            }
            if (i == expStart) {
                throw error("exponent digits");
            }
            exponent += minus ? -e : e;
        }
        if (integral) {
            if (digits <= 18) {
                return negative ? -mantissa : mantissa;
            }
            BigInteger big = new BigInteger(new String(b, start, i - start, StandardCharsets.ISO_8859_1));
            return big.bitLength() < 64 ? (Object) big.longValue() : big;
        }
        if (digits <= 18 && mantissa <= 1L << 53 && Math.abs(exponent) <= 22) {
            double value = exponent < 0 ? mantissa / POWERS_OF_TEN[-exponent] : mantissa * POWERS_OF_TEN[exponent];
            return negative ? -value : value;
        }
        // correctly rounded, several times faster than Double.parseDouble on 17 digits
        return NumberInput.parseDouble(new String(b, start, i - start, StandardCharsets.ISO_8859_1), true);
    }

    private static boolean isDigit(byte c) {
        return c >= '0' && c <= '9';
    }

    private Object literal(String word, Object value) {
        for (int k = 0; k < word.length(); k++) {
            if (i + k >= b.length || b[i + k] != word.charAt(k)) {
                throw error("'" + word + "'");
            }
        }
        i += word.length();
        return value;
    }

    private void skipSpace() {
        while (i < b.length && (b[i] == ' ' || b[i] == '\n' || b[i] == '\r' || b[i] == '\t')) {
            i++;
        }
    }

    private byte peek() {
        if (i >= b.length) {
            throw error("more input");
        }
        return b[i];
    }

    private byte next() {
        byte c = peek();
        i++;
        return c;
    }

    private void expect(char c) {
        if (next() != c) {
            throw error("'" + c + "'");
        }
    }

    private IllegalStateException error(String expected) {
        return new IllegalStateException("the database sent JSON that does not parse: expected " + expected
                + " at byte " + i + " of " + b.length);
    }
}
