package dev.cairn.storage.objects;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;

/**
 * Compresses objects for packs, reusing its codec contexts across objects: making a context costs more
 * than compressing a small object with it, which is where disk-objectstore's compressed writes, a new
 * context per object, lose most of their time. Not thread-safe: one per writer.
 */
final class Compressor implements AutoCloseable {

    static final int ZLIB_LEVEL = 1;
    static final int ZSTD_LEVEL = 1;

    private Deflater deflater;
    private ZstdCompressCtx zstd;
    private byte[] out = new byte[64 << 10];

    /**
     * The compressed form of {@code raw[off, off+len)}, or null when it would not be at most
     * {@link Compression#WORTHWHILE_RATIO} of the raw size (the object is then stored raw).
     * The returned array may be longer than the data: its length is {@link #lastLength()}.
     */
    byte[] compress(Compression c, byte[] raw, int off, int len) {
        if (len < 32 || c == Compression.NONE) {
            return null; // too small to gain anything once the frame header is paid
        }
        int limit = (int) (len * Compression.WORTHWHILE_RATIO);
        int n = switch (c) {
            case ZLIB -> deflate(raw, off, len);
            case ZSTD -> zstd(raw, off, len);
            case NONE -> throw new IllegalStateException();
        };
        lastLength = n;
        return n >= 0 && n <= limit ? out : null;
    }

    private int lastLength;

    int lastLength() {
        return lastLength;
    }

    private int deflate(byte[] raw, int off, int len) {
        if (deflater == null) {
            deflater = new Deflater(ZLIB_LEVEL);
        }
        deflater.reset();
        deflater.setInput(raw, off, len);
        deflater.finish();
        ensure(len + (len >> 3) + 64);
        int n = 0;
        while (!deflater.finished()) {
            if (n == out.length) {
                out = Arrays.copyOf(out, out.length * 2);
            }
            n += deflater.deflate(out, n, out.length - n);
        }
        return n;
    }

    private int zstd(byte[] raw, int off, int len) {
        if (zstd == null) {
            zstd = new ZstdCompressCtx();
            zstd.setLevel(ZSTD_LEVEL);
            zstd.setChecksum(true);
            zstd.setContentSize(true);
        }
        ensure((int) Zstd.compressBound(len));
        return zstd.compressByteArray(out, 0, out.length, raw, off, len);
    }

    private void ensure(int n) {
        if (out.length < n) {
            out = new byte[Math.max(n, out.length * 2)];
        }
    }

    /** A stream that compresses into {@code sink}; closing it ends the frame but leaves the sink open. */
    static OutputStream compressing(Compression c, OutputStream sink) throws IOException {
        OutputStream keepOpen = new FilterOutputStream(sink) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
            }

            @Override
            public void close() throws IOException {
                out.flush();
            }
        };
        return switch (c) {
            case NONE -> keepOpen;
            case ZLIB ->
                new DeflaterOutputStream(keepOpen, new Deflater(ZLIB_LEVEL), 64 << 10) {
                    @Override
                    public void close() throws IOException {
                        try {
                            super.close();
                        } finally {
                            def.end(); // a Deflater passed in is not ended by the stream
                        }
                    }
                };
            case ZSTD -> {
                ZstdOutputStreamNoFinalizer z = new ZstdOutputStreamNoFinalizer(keepOpen, ZSTD_LEVEL);
                z.setChecksum(true);
                yield z;
            }
        };
    }

    @Override
    public void close() {
        if (deflater != null) {
            deflater.end();
        }
        if (zstd != null) {
            zstd.close();
        }
    }
}
