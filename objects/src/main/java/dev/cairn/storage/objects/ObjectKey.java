package dev.cairn.storage.objects;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.HexFormat;

/**
 * The key of an object: the SHA-256 of its uncompressed content, written as 64 lowercase hex digits.
 * The store computes keys while writing; callers never choose them.
 *
 * <p>A value class rather than a record because keys sit on every hot path: it holds the digest as four
 * longs (cheap to hash, compare and search in the index cache) and renders the hex text only when asked.
 */
public final class ObjectKey implements Comparable<ObjectKey> {

    private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final HexFormat HEX = HexFormat.of();

    private final long w0;
    private final long w1;
    private final long w2;
    private final long w3;
    private String hex;

    private ObjectKey(long w0, long w1, long w2, long w3) {
        this.w0 = w0;
        this.w1 = w1;
        this.w2 = w2;
        this.w3 = w3;
    }

    /** Parses a key; fails with a message saying what a key looks like. */
    public static ObjectKey of(String hex) {
        if (hex == null || hex.length() != 64 || !isLowerHex(hex)) {
            throw new IllegalArgumentException("not an object key: '" + hex
                    + "'; a key is the SHA-256 of the content as 64 lowercase hex digits (0-9, a-f)");
        }
        ObjectKey k = new ObjectKey(
                HexFormat.fromHexDigitsToLong(hex, 0, 16),
                HexFormat.fromHexDigitsToLong(hex, 16, 32),
                HexFormat.fromHexDigitsToLong(hex, 32, 48),
                HexFormat.fromHexDigitsToLong(hex, 48, 64));
        k.hex = hex;
        return k;
    }

    private static boolean isLowerHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return false;
            }
        }
        return true;
    }

    /** The key of a 32-byte SHA-256 digest. */
    public static ObjectKey ofDigest(byte[] digest) {
        if (digest.length != 32) {
            throw new IllegalArgumentException("a SHA-256 digest has 32 bytes, not " + digest.length);
        }
        return ofWords(
                (long) LONG_BE.get(digest, 0), (long) LONG_BE.get(digest, 8), (long) LONG_BE.get(digest, 16), (long)
                        LONG_BE.get(digest, 24));
    }

    static ObjectKey ofWords(long w0, long w1, long w2, long w3) {
        return new ObjectKey(w0, w1, w2, w3);
    }

    /** The 64 lowercase hex digits. */
    public String hex() {
        String h = hex;
        if (h == null) {
            h = HEX.toHexDigits(w0) + HEX.toHexDigits(w1) + HEX.toHexDigits(w2) + HEX.toHexDigits(w3);
            hex = h; // a benign race: every thread computes the same string
        }
        return h;
    }

    /** The 32 bytes of the digest. */
    public byte[] digest() {
        byte[] d = new byte[32];
        LONG_BE.set(d, 0, w0);
        LONG_BE.set(d, 8, w1);
        LONG_BE.set(d, 16, w2);
        LONG_BE.set(d, 24, w3);
        return d;
    }

    /** One of the four big-endian 64-bit words of the digest, 0 to 3. */
    long word(int i) {
        return switch (i) {
            case 0 -> w0;
            case 1 -> w1;
            case 2 -> w2;
            case 3 -> w3;
            default -> throw new IndexOutOfBoundsException(i);
        };
    }

    /** Orders as the hex text does (unsigned, big-endian). */
    @Override
    public int compareTo(ObjectKey o) {
        int c = Long.compareUnsigned(w0, o.w0);
        if (c == 0) {
            c = Long.compareUnsigned(w1, o.w1);
            if (c == 0) {
                c = Long.compareUnsigned(w2, o.w2);
                if (c == 0) {
                    c = Long.compareUnsigned(w3, o.w3);
                }
            }
        }
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ObjectKey k && k.w0 == w0 && k.w1 == w1 && k.w2 == w2 && k.w3 == w3;
    }

    @Override
    public int hashCode() {
        return (int) w3; // the digest is uniformly random already
    }

    @Override
    public String toString() {
        return hex();
    }
}
