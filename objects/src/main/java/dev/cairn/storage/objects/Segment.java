package dev.cairn.storage.objects;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.List;

/**
 * The stored form of a run of index entries: fixed-width records sorted by key, one BLOB per committed
 * batch. Records are big-endian: 32-byte key, then pack (4), offset (8), stored length (8),
 * uncompressed size (8), compression code (1) — 61 bytes.
 */
final class Segment {

    static final int RECORD = 61;
    /** Keeps every BLOB far below SQLite's 1 GB limit. */
    static final int MAX_ENTRIES = 1 << 20;

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);

    private Segment() {}

    /** Encodes entries already sorted by key. */
    static byte[] encode(List<PackEntry> sorted) {
        byte[] out = new byte[sorted.size() * RECORD];
        int p = 0;
        for (PackEntry e : sorted) {
            ObjectKey k = e.key();
            LONG.set(out, p, k.word(0));
            LONG.set(out, p + 8, k.word(1));
            LONG.set(out, p + 16, k.word(2));
            LONG.set(out, p + 24, k.word(3));
            INT.set(out, p + 32, e.pack());
            LONG.set(out, p + 36, e.offset());
            LONG.set(out, p + 44, e.length());
            LONG.set(out, p + 52, e.size());
            out[p + 60] = (byte) e.compression().code();
            p += RECORD;
        }
        return out;
    }

    /** Receives decoded records. */
    interface RecordSink {
        void record(long w0, long w1, long w2, long w3, int pack, long offset, long length, long size, int codec);
    }

    static void decode(byte[] blob, RecordSink sink) {
        if (blob.length % RECORD != 0) {
            throw new IllegalStateException(
                    "an index segment of " + blob.length + " bytes is not a whole number of records");
        }
        for (int p = 0; p < blob.length; p += RECORD) {
            sink.record(
                    (long) LONG.get(blob, p),
                    (long) LONG.get(blob, p + 8),
                    (long) LONG.get(blob, p + 16),
                    (long) LONG.get(blob, p + 24),
                    (int) INT.get(blob, p + 32),
                    (long) LONG.get(blob, p + 36),
                    (long) LONG.get(blob, p + 44),
                    (long) LONG.get(blob, p + 52),
                    blob[p + 60]);
        }
    }
}
