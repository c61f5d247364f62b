package dev.cairn.storage.objects;

import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;

/**
 * An object made ready for a pack: its key and the bytes to store, compressed where that pays, else the raw
 * content. Preparing (hashing and compressing) needs no lock, so batches of objects are prepared on several
 * threads ahead of the {@link PackWriter}'s sequential appends.
 *
 * @param stored the bytes to append; only the first {@code length} count (a compressor's buffer may be longer)
 * @param size the object's size as read back
 */
record PreparedObject(ObjectKey key, byte[] stored, int length, long size, Compression compression) {

    /**
     * {@code raw} as it goes into a pack: compressed with {@code compression} where that pays, else raw.
     * The compressed bytes are copied out of the compressor's buffer only when {@code copy} asks.
     */
    static PreparedObject of(ObjectKey key, byte[] raw, Compression compression, Compressor c, boolean copy) {
        byte[] packed = c.compress(compression, raw, 0, raw.length);
        if (packed == null) {
            return new PreparedObject(key, raw, raw.length, raw.length, Compression.NONE);
        }
        byte[] stored = copy ? Arrays.copyOf(packed, c.lastLength()) : packed;
        return new PreparedObject(key, stored, c.lastLength(), raw.length, compression);
    }

    /** Hashes and compresses {@code contents}, in order, with a digest and a compressor of its own. */
    static PreparedObject[] hashAndCompress(List<byte[]> contents, Compression compression) {
        PreparedObject[] out = new PreparedObject[contents.size()];
        MessageDigest digest = Sha256.newDigest();
        try (Compressor c = new Compressor()) {
            for (int i = 0; i < out.length; i++) {
                byte[] raw = contents.get(i);
                // copied: the appends run later, after this compressor has moved on
                out[i] = of(ObjectKey.ofDigest(digest.digest(raw)), raw, compression, c, true);
            }
        }
        return out;
    }
}
