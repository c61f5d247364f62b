package dev.cairn.storage.objects;

import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The key of an object: the SHA-256 of its uncompressed content as 64 lowercase hex digits.
 * The store computes keys while writing; callers never choose them.
 */
public record ObjectKey(String hex) implements Comparable<ObjectKey> {

    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");
    private static final HexFormat HEX = HexFormat.of();

    public ObjectKey {
        if (hex == null || !HEX64.matcher(hex).matches()) {
            throw new IllegalArgumentException("not an object key: '" + hex
                    + "'; a key is the SHA-256 of the content as 64 lowercase hex digits (0-9, a-f)");
        }
    }

    /** Parses a key, with the same check as the constructor. */
    public static ObjectKey of(String hex) {
        return new ObjectKey(hex);
    }

    /** The key of a 32-byte SHA-256 digest. */
    public static ObjectKey ofDigest(byte[] digest) {
        if (digest.length != 32) {
            throw new IllegalArgumentException("a SHA-256 digest has 32 bytes, not " + digest.length);
        }
        return new ObjectKey(HEX.formatHex(digest));
    }

    /** The 32 bytes of the digest. */
    public byte[] digest() {
        return HEX.parseHex(hex);
    }

    /** One of the four big-endian 64-bit words of the digest, 0 to 3; the index cache sorts on them. */
    long word(int i) {
        return HexFormat.fromHexDigitsToLong(hex, i * 16, i * 16 + 16);
    }

    @Override
    public int compareTo(ObjectKey other) {
        return hex.compareTo(other.hex);
    }

    @Override
    public String toString() {
        return hex;
    }
}
