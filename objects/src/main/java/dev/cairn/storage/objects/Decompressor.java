package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;

/**
 * Decodes packed objects, reusing its contexts. Both codecs carry a checksum of the content (Adler-32 for
 * zlib, XXH64 for zstd) and the decoded size must equal the indexed size, so a damaged object fails here
 * with its key named instead of returning wrong bytes. Not thread-safe: one per reader.
 */
final class Decompressor implements AutoCloseable {

    private Inflater inflater;
    private ZstdDecompressCtx zstd;

    /** Decodes {@code src[off, off+len)} of object {@code key} into a new array of {@code size} bytes. */
    byte[] decompress(ObjectKey key, Compression c, byte[] src, int off, int len, long size)
            throws CorruptObjectException {
        if (size > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("object " + key + " has " + size + " bytes: read it as a stream");
        }
        byte[] dst = new byte[(int) size];
        try {
            int n = switch (c) {
                case NONE -> throw new IllegalStateException("not compressed");
                case ZLIB -> inflate(src, off, len, dst);
                case ZSTD -> unzstd(src, off, len, dst);
            };
            if (n != size) {
                throw new CorruptObjectException(key, "decodes to " + n + " bytes instead of " + size);
            }
            return dst;
        } catch (DataFormatException | RuntimeException e) {
            throw new CorruptObjectException(
                    key, c.name().toLowerCase() + " data does not decode: " + e.getMessage(), e);
        }
    }

    private int inflate(byte[] src, int off, int len, byte[] dst) throws DataFormatException {
        if (inflater == null) {
            inflater = new Inflater();
        }
        inflater.reset();
        inflater.setInput(src, off, len);
        int n = 0;
        while (!inflater.finished() && n < dst.length) {
            int k = inflater.inflate(dst, n, dst.length - n);
            if (k == 0 && !inflater.finished() && (inflater.needsInput() || inflater.needsDictionary())) {
                throw new DataFormatException("the stream ends early");
            }
            n += k;
        }
        if (!inflater.finished()) {
            // dst is full: what remains must be the Adler-32 trailer alone, checked by this last call
            byte[] extra = new byte[1];
            if (inflater.inflate(extra) != 0 || !inflater.finished()) {
                throw new DataFormatException("longer than its indexed size");
            }
        }
        return n;
    }

    private int unzstd(byte[] src, int off, int len, byte[] dst) {
        if (zstd == null) {
            zstd = new ZstdDecompressCtx();
        }
        return zstd.decompressByteArray(dst, 0, dst.length, src, off, len);
    }

    /** A stream decoding {@code raw} (the stored bytes of one object). */
    static InputStream decompressing(Compression c, InputStream raw) throws IOException {
        return switch (c) {
            case NONE -> raw;
            case ZLIB ->
                new InflaterInputStream(raw, new Inflater(), 64 << 10) {
                    @Override
                    public void close() throws IOException {
                        try {
                            super.close();
                        } finally {
                            inf.end();
                        }
                    }
                };
            case ZSTD -> new ZstdInputStreamNoFinalizer(raw);
        };
    }

    @Override
    public void close() {
        if (inflater != null) {
            inflater.end();
        }
        if (zstd != null) {
            zstd.close();
        }
    }
}
