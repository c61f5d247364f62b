package dev.cairn.storage.archive;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdException;

/**
 * The stream of one part of Cairn's format, read chunk frame by chunk frame up to the part's end frame,
 * whose length and SHA-256 it checks against what was read. Counts newlines for row parts.
 */
final class PartInput extends InputStream {

    private final DataInputStream in;
    private final ArchivePart part;
    private final MessageDigest digest = Digests.sha256();
    private byte[] chunk = new byte[0];
    private int pos;
    private long bytes;
    private long lines;
    private Map<String, Object> end;

    private final Expansion expansion;

    PartInput(DataInputStream in, ArchivePart part, Expansion expansion) {
        this.in = in;
        this.part = part;
        this.expansion = expansion;
    }

    /** The bytes an archive's chunks took in the file and gave decompressed, against its limit. */
    static final class Expansion {
        private final ExpansionLimit limit;
        private long stored;
        private long raw;

        Expansion(ExpansionLimit limit) {
            this.limit = limit;
        }

        void add(long storedBytes, long rawBytes) {
            stored += storedBytes;
            raw += rawBytes;
            limit.check(stored, raw);
        }
    }

    @Override
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        byte b = chunk[pos++];
        if (b == '\n') {
            lines++;
        }
        return b & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(len, chunk.length - pos);
        System.arraycopy(chunk, pos, b, off, n);
        for (int i = pos; i < pos + n; i++) {
            if (chunk[i] == '\n') {
                lines++;
            }
        }
        pos += n;
        return n;
    }

    /** Reads the next chunk when this one is used up; false at the part's end (checked by then). */
    private boolean fill() throws IOException {
        while (pos == chunk.length) {
            if (end != null) {
                return false;
            }
            Frames.Frame f = Frames.read(in, "the " + part.key() + " part");
            if (f.type() == Frames.END) {
                checkEnd(HeaderJson.object(f.payload(), "the end of the " + part.key() + " part"));
                return false;
            }
            if (f.type() != Frames.CHUNK) {
                throw new InvalidArchiveException(
                        "corrupt archive: a " + Frames.name(f.type()) + " frame inside the " + part.key() + " part");
            }
            expansion.add(f.payload().length, f.raw());
            byte[] raw = new byte[f.raw()];
            long n;
            try {
                n = Zstd.decompressByteArray(raw, 0, raw.length, f.payload(), 0, f.payload().length);
            } catch (ZstdException e) {
                throw new InvalidArchiveException(
                        "corrupt archive: a chunk of the " + part.key() + " part does not decompress (" + e.getMessage()
                                + ")",
                        e);
            }
            if (Zstd.isError(n) || n != raw.length) {
                throw new InvalidArchiveException("corrupt archive: a chunk of the " + part.key()
                        + " part does not decompress to its " + raw.length + " bytes"
                        + (Zstd.isError(n) ? " (" + Zstd.getErrorName(n) + ")" : " (" + n + ")"));
            }
            digest.update(raw);
            bytes += raw.length;
            chunk = raw;
            pos = 0;
        }
        return true;
    }

    private void checkEnd(Map<String, Object> json) {
        end = json;
        if (!part.key().equals(json.get("part"))) {
            throw new InvalidArchiveException(
                    "corrupt archive: the " + part.key() + " part ends as part '" + json.get("part") + "'");
        }
        if (!(json.get("bytes") instanceof Long b) || b != bytes) {
            throw new InvalidArchiveException("corrupt archive: the " + part.key() + " part has " + bytes
                    + " bytes, and its end says " + json.get("bytes"));
        }
        String sha256 = HexFormat.of().formatHex(digest.digest());
        if (!sha256.equals(json.get("sha256"))) {
            throw new InvalidArchiveException("the checksum of the " + part.key() + " part does not match: its bytes"
                    + " have SHA-256 " + sha256 + ", and its end says " + json.get("sha256"));
        }
    }

    /** Reads what the visitor left, so the part's end is reached and checked. */
    void drain() throws IOException {
        byte[] skip = new byte[8192];
        while (read(skip, 0, skip.length) >= 0) {
            // reading is the check
        }
    }

    /** The count the part's end frame gives (after {@link #drain}). */
    long endCount() {
        if (!(end.get("count") instanceof Long n) || n < 0) {
            throw new InvalidArchiveException("corrupt archive: the end of the " + part.key()
                    + " part has no valid count (" + end.get("count") + ")");
        }
        return n;
    }

    long lines() {
        return lines;
    }

    boolean atEnd() throws IOException {
        return !fill();
    }
}
