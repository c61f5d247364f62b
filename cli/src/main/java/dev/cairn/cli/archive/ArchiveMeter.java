package dev.cairn.cli.archive;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import com.github.luben.zstd.Zstd;
import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.JsonTrees;

/**
 * Passes a Cairn archive through as it streams (a download to its file) and counts what went by: the rows
 * of each part (a chunk's newlines) and the objects (their records), against the total the header
 * announces, for a progress bar. It reads the frames' lengths, decompresses each chunk once more (Zstandard,
 * faster than the network) and checks nothing: the archive is verified where it is read. Bytes it cannot
 * follow (a stream that is no Cairn archive) pass through uncounted.
 */
public final class ArchiveMeter extends FilterOutputStream {

    /** Told the total once the header went by, and the count of rows and objects done so far. */
    public interface Listener {
        void total(long rowsAndObjects);

        void done(long rowsAndObjects);
    }

    private static final int START = CairnFrames.MAGIC.length + Integer.BYTES;
    /** An object's record begins with its key and its size. */
    private static final int RECORD_HEAD = 32 + Long.BYTES;

    private final Listener listener;
    private byte[] pending = new byte[START];
    private int filled;
    private boolean started;
    private boolean lost;
    private boolean complete;
    private int frameType = -1;
    private int frameRaw;
    private boolean inObjects;
    private long done;
    // the objects' stream: where the current record's head or content stands
    private final byte[] recordHead = new byte[RECORD_HEAD];
    private int headFilled;
    private long contentLeft;

    public ArchiveMeter(OutputStream out, Listener listener) {
        super(out);
        this.listener = listener;
    }

    /**
     * Whether what went by is a Cairn archive without its trailer, its last frame: one cut short. (Of
     * another format this meter cannot tell; that reader judges it.)
     */
    public boolean cutShort() {
        return started && !lost && !complete;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        if (!lost) {
            try {
                follow(b, off, len);
            } catch (RuntimeException e) {
                // a meter that lost its way counts no more; the download goes on
                lost = true;
            }
        }
    }

    /** Gathers the bytes of the magic, a frame's head or a frame's payload, and acts on each once whole. */
    private void follow(byte[] b, int off, int len) {
        int i = off;
        int end = off + len;
        while (i < end) {
            int n = Math.min(end - i, pending.length - filled);
            System.arraycopy(b, i, pending, filled, n);
            filled += n;
            i += n;
            if (filled == pending.length) {
                filled = 0;
                next();
            }
        }
    }

    private void next() {
        if (!started) {
            if (!CairnFrames.isCairn(pending)) {
                throw new IllegalStateException("not a Cairn archive");
            }
            started = true;
            pending = new byte[CairnFrames.HEAD];
            return;
        }
        if (frameType < 0) {
            frameType = pending[0] & 0xff;
            int stored = readInt(pending, 1);
            frameRaw = readInt(pending, 5);
            if (stored < 0 || stored > CairnFrames.MAX_PAYLOAD || frameRaw < 0 || frameRaw > CairnFrames.MAX_PAYLOAD) {
                throw new IllegalStateException("a frame out of bounds");
            }
            pending = new byte[stored];
            if (stored == 0) {
                frame(pending);
            }
            return;
        }
        frame(pending);
    }

    private void frame(byte[] payload) {
        switch (frameType) {
            case CairnFrames.HEADER -> listener.total(total(payload));
            case CairnFrames.PART ->
                inObjects = "objects".equals(json(payload).path("part").asString());
            case CairnFrames.CHUNK -> chunk(payload);
            case CairnFrames.TRAILER -> complete = true;
            default -> {
                // a part's end: its rows were counted chunk by chunk
            }
        }
        frameType = -1;
        pending = new byte[CairnFrames.HEAD];
    }

    private void chunk(byte[] payload) {
        byte[] raw = new byte[frameRaw];
        long n = Zstd.decompressByteArray(raw, 0, raw.length, payload, 0, payload.length);
        if (Zstd.isError(n) || n != raw.length) {
            throw new IllegalStateException("a chunk that does not decompress");
        }
        long before = done;
        if (inObjects) {
            objects(raw);
        } else {
            for (byte x : raw) {
                if (x == '\n') {
                    done++;
                }
            }
        }
        if (done != before) {
            listener.done(done);
        }
    }

    /** Steps over the object records in {@code raw}: a key and a size, then that many bytes of content. */
    private void objects(byte[] raw) {
        int i = 0;
        while (i < raw.length) {
            if (contentLeft > 0) {
                int skip = (int) Math.min(contentLeft, raw.length - i);
                contentLeft -= skip;
                i += skip;
                continue;
            }
            int n = Math.min(RECORD_HEAD - headFilled, raw.length - i);
            System.arraycopy(raw, i, recordHead, headFilled, n);
            headFilled += n;
            i += n;
            if (headFilled == RECORD_HEAD) {
                headFilled = 0;
                contentLeft = readLong(recordHead, 32);
                done++;
            }
        }
    }

    private static long total(byte[] payload) {
        long total = 0;
        for (JsonNode count : json(payload).path("counts")) {
            total += count.asLong();
        }
        return total;
    }

    private static JsonNode json(byte[] payload) {
        return JsonTrees.parse(new String(payload, StandardCharsets.UTF_8));
    }

    private static int readInt(byte[] b, int at) {
        return (b[at] & 0xff) << 24 | (b[at + 1] & 0xff) << 16 | (b[at + 2] & 0xff) << 8 | (b[at + 3] & 0xff);
    }

    private static long readLong(byte[] b, int at) {
        long v = 0;
        for (int i = at; i < at + Long.BYTES; i++) {
            v = v << 8 | (b[i] & 0xff);
        }
        return v;
    }
}
