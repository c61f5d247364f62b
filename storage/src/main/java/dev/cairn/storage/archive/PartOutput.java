package dev.cairn.storage.archive;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

import com.github.luben.zstd.Zstd;

/**
 * The stream of one part of Cairn's format: bytes are gathered into chunks of {@link Frames#CHUNK_SIZE},
 * each compressed into one frame, while the part's length and SHA-256 are kept for its end frame.
 */
final class PartOutput extends OutputStream {

    /** Level 1: the archive is written at the speed rows come out of the database. */
    private static final int LEVEL = 1;

    private final DataOutputStream out;
    private final ArchivePart part;
    private final MessageDigest digest = Digests.sha256();
    private final byte[] chunk = new byte[Frames.CHUNK_SIZE];
    private byte[] compressed = new byte[(int) Zstd.compressBound(Frames.CHUNK_SIZE)];
    private int filled;
    private long bytes;
    private long lines;
    private boolean ended;

    PartOutput(DataOutputStream out, ArchivePart part) {
        this.out = out;
        this.part = part;
    }

    ArchivePart part() {
        return part;
    }

    @Override
    public void write(int b) throws IOException {
        if (filled == chunk.length) {
            flushChunk();
        }
        chunk[filled++] = (byte) b;
        if (b == '\n') {
            lines++;
        }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        if (ended) {
            throw new IOException("the " + part.key() + " part of the archive is closed");
        }
        while (len > 0) {
            if (filled == chunk.length) {
                flushChunk();
            }
            int n = Math.min(len, chunk.length - filled);
            System.arraycopy(b, off, chunk, filled, n);
            for (int i = 0; i < n; i++) {
                if (b[off + i] == '\n') {
                    lines++;
                }
            }
            filled += n;
            off += n;
            len -= n;
        }
    }

    /** The newlines written: the rows of a row part. */
    long lines() {
        return lines;
    }

    private void flushChunk() throws IOException {
        if (filled == 0) {
            return;
        }
        digest.update(chunk, 0, filled);
        bytes += filled;
        long n = Zstd.compressByteArray(compressed, 0, compressed.length, chunk, 0, filled, LEVEL);
        if (Zstd.isError(n)) {
            throw new IOException("compressing the " + part.key() + " part failed: " + Zstd.getErrorName(n));
        }
        Frames.write(out, Frames.CHUNK, compressed, (int) n, filled);
        filled = 0;
    }

    /**
     * Writes the last chunk and the part's end frame, with {@code count} rows or objects; returns the
     * part's SHA-256 for the trailer.
     */
    String end(long count) throws IOException {
        flushChunk();
        ended = true;
        String sha256 = HexFormat.of().formatHex(digest.digest());
        Map<String, Object> end = new LinkedHashMap<>();
        end.put("part", part.key());
        end.put("count", count);
        end.put("bytes", bytes);
        end.put("sha256", sha256);
        CairnArchiveWriter.writeJsonFrame(out, Frames.END, end);
        compressed = null;
        return sha256;
    }
}
