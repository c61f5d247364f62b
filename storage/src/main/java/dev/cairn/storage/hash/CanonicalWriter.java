package dev.cairn.storage.hash;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.util.UUID;

import dev.cairn.storage.hash.internal.SignificantDigits;

/**
 * Writes the typed values of the canonical form (see {@link NodeHasher}) into a small
 * staging buffer that is handed to a {@link Sink} whenever it fills, so that a digest is fed
 * while the node is walked and no image of the whole node is ever built.
 */
final class CanonicalWriter {

    static final byte NULL = 'N';
    static final byte BOOLEAN = 'B';
    static final byte INTEGER = 'I';
    static final byte FLOAT = 'F';
    static final byte STRING = 'S';
    static final byte UUID_TAG = 'U';
    static final byte LIST = 'L';
    static final byte MAP = 'M';

    /** Where the bytes go: a digest's {@code update}, or a byte stream for tests. */
    @FunctionalInterface
    interface Sink {
        void write(byte[] bytes, int offset, int length);
    }

    private static final int BUFFER_SIZE = 1024;
    private static final VarHandle LONG_BIG_ENDIAN =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private final Sink sink;
    private final byte[] buffer = new byte[BUFFER_SIZE];
    private int position;

    CanonicalWriter(Sink sink) {
        this.sink = sink;
    }

    /** Hands the staged bytes to the sink; call once at the end. */
    void flush() {
        if (position > 0) {
            sink.write(buffer, 0, position);
            position = 0;
        }
    }

    private void ensure(int bytes) {
        if (position + bytes > BUFFER_SIZE) {
            flush();
        }
    }

    void writeNull() {
        ensure(1);
        buffer[position++] = NULL;
    }

    void writeBoolean(boolean value) {
        ensure(2);
        buffer[position++] = BOOLEAN;
        buffer[position++] = (byte) (value ? 1 : 0);
    }

    /** An integer as its shortest two's-complement big-endian bytes, as {@link BigInteger#toByteArray}. */
    void writeInteger(long value) {
        ensure(10);
        buffer[position++] = INTEGER;
        putIntegerContent(value);
    }

    void writeInteger(BigInteger value) {
        if (value.bitLength() < 64) {
            writeInteger(value.longValue());
            return;
        }
        ensure(1);
        buffer[position++] = INTEGER;
        putIntegerContent(value);
    }

    /**
     * A finite double as its value rounded to 14 significant digits, the decimal s * 10^e in
     * lowest terms: the tag, then s and e each as an integer's length and bytes.
     */
    void writeFloat(double value) {
        long rounded = SignificantDigits.round(value);
        ensure(1 + 9 + 9);
        buffer[position++] = FLOAT;
        putIntegerContent(SignificantDigits.significand(rounded));
        putIntegerContent(SignificantDigits.exponent(rounded));
    }

    void writeFloat(BigDecimal value) {
        BigDecimal rounded = SignificantDigits.round(value);
        ensure(1);
        buffer[position++] = FLOAT;
        putIntegerContent(rounded.unscaledValue());
        ensure(9);
        putIntegerContent(-(long) rounded.scale());
    }

    /** A tagged string; throws {@link UnhashableValueException} if it holds an unpaired surrogate. */
    void writeString(String value) {
        ensure(1);
        buffer[position++] = STRING;
        writeUtf8(value);
    }

    /** A map key: like a string but without the tag, since a key can only be a string. */
    void writeKey(String key) {
        writeUtf8(key);
    }

    void writeUuid(UUID value) {
        ensure(17);
        buffer[position++] = UUID_TAG;
        putLong(value.getMostSignificantBits());
        putLong(value.getLeastSignificantBits());
    }

    /** Starts a list of {@code size} values; the caller writes them next. */
    void writeListHeader(int size) {
        ensure(6);
        buffer[position++] = LIST;
        putLength(size);
    }

    /** Starts a map of {@code size} entries; the caller writes each key and value, keys in {@link Utf8Order}. */
    void writeMapHeader(int size) {
        ensure(6);
        buffer[position++] = MAP;
        putLength(size);
    }

    @SuppressWarnings("deprecation") // getBytes(int, int, byte[], int) copies the low byte of each char
    private void writeUtf8(String s) {
        int chars = s.length();
        if (chars < 128) {
            // Most keys and values: short ASCII, copied and checked in one pass behind a
            // one-byte length; on the first other char nothing is kept and the general path runs.
            ensure(1 + chars);
            int start = position + 1;
            int i = 0;
            while (i < chars) {
                char c = s.charAt(i);
                if (c >= 0x80) {
                    break;
                }
                buffer[start + i++] = (byte) c;
            }
            if (i == chars) {
                buffer[position] = (byte) chars;
                position = start + chars;
                return;
            }
        }
        int length = utf8Length(s);
        ensure(5);
        putLength(length);
        if (length == chars) { // ASCII: one byte per char
            for (int i = 0; i < chars; ) {
                ensure(1);
                int n = Math.min(chars - i, BUFFER_SIZE - position);
                s.getBytes(i, i + n, buffer, position);
                position += n;
                i += n;
            }
            return;
        }
        for (int i = 0; i < chars; i++) {
            ensure(4);
            char c = s.charAt(i);
            if (c < 0x80) {
                buffer[position++] = (byte) c;
            } else if (c < 0x800) {
                buffer[position++] = (byte) (0xC0 | c >> 6);
                buffer[position++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c)) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                buffer[position++] = (byte) (0xF0 | cp >> 18);
                buffer[position++] = (byte) (0x80 | cp >> 12 & 0x3F);
                buffer[position++] = (byte) (0x80 | cp >> 6 & 0x3F);
                buffer[position++] = (byte) (0x80 | cp & 0x3F);
            } else {
                buffer[position++] = (byte) (0xE0 | c >> 12);
                buffer[position++] = (byte) (0x80 | c >> 6 & 0x3F);
                buffer[position++] = (byte) (0x80 | c & 0x3F);
            }
        }
    }

    /** Whether a string has a UTF-8 form, i.e. no unpaired surrogate. */
    static boolean isWellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isSurrogate(c)) {
                if (!Character.isHighSurrogate(c)
                        || i + 1 == s.length()
                        || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                i++;
            }
        }
        return true;
    }

    /** UTF-8 length of a well-formed string; an unpaired surrogate has no UTF-8 form and is refused. */
    private static int utf8Length(String s) {
        int chars = s.length();
        int length = chars;
        for (int i = 0; i < chars; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                if (c < 0x800) {
                    length += 1;
                } else if (Character.isSurrogate(c)) {
                    if (!Character.isHighSurrogate(c) || i + 1 == chars || !Character.isLowSurrogate(s.charAt(i + 1))) {
                        throw new UnhashableValueException("string has an unpaired surrogate U+"
                                + Integer.toHexString(c).toUpperCase() + " at index " + i
                                + ", which has no UTF-8 form");
                    }
                    length += 2; // 2 chars, 4 bytes
                    i++;
                } else {
                    length += 2;
                }
            }
        }
        return length;
    }

    /** A length or count as an unsigned LEB128 varint: 7 bits a byte, low first, high bit = more. */
    private void putLength(int length) {
        while ((length & ~0x7F) != 0) {
            buffer[position++] = (byte) (length & 0x7F | 0x80);
            length >>>= 7;
        }
        buffer[position++] = (byte) length;
    }

    /**
     * Length (one byte: at most 8) and the shortest two's-complement big-endian bytes. The
     * caller reserves 9 bytes: the bytes go in one 8-byte store, significant ones first, and
     * what follows them is overwritten by the next write.
     */
    private void putIntegerContent(long value) {
        int bits = 65 - Long.numberOfLeadingZeros(value ^ (value >> 63));
        int length = (bits + 7) >>> 3;
        buffer[position] = (byte) length;
        LONG_BIG_ENDIAN.set(buffer, position + 1, value << (64 - 8 * length));
        position += 1 + length;
    }

    private void putIntegerContent(BigInteger value) {
        if (value.bitLength() < 64) {
            ensure(9);
            putIntegerContent(value.longValue());
            return;
        }
        byte[] bytes = value.toByteArray();
        ensure(5);
        putLength(bytes.length);
        putBytes(bytes);
    }

    private void putLong(long v) {
        for (int shift = 56; shift >= 0; shift -= 8) {
            buffer[position++] = (byte) (v >>> shift);
        }
    }

    private void putBytes(byte[] bytes) {
        int offset = 0;
        while (offset < bytes.length) {
            ensure(1);
            int n = Math.min(bytes.length - offset, BUFFER_SIZE - position);
            System.arraycopy(bytes, offset, buffer, position, n);
            position += n;
            offset += n;
        }
    }
}
