package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

import dev.cairn.storage.archive.InvalidArchiveException;

/**
 * The uncompressed bytes of one zip entry, checked as they are read: never more than the directory
 * declares, never more than the limits allow (the ratio to the compressed bytes consumed so far, the
 * archive's total), and at the end exactly the declared size with the declared CRC-32. A failed check
 * throws {@link InvalidArchiveException} from {@code read}, naming the entry.
 */
final class ZipEntryInput extends InputStream {

    private static final int LOCAL = 0x04034b50;
    private static final int LOCAL_SIZE = 30;

    private final ZipEntryRecord entry;
    private final String where;
    private final RegionInput data;
    private final Inflater inflater;
    private final byte[] input;
    private final AiidaArchiveLimits limits;
    private final InflationBudget budget;
    private final CRC32 crc = new CRC32();
    private long produced;
    private boolean done;

    private ZipEntryInput(
            ZipEntryRecord entry, String where, RegionInput data, AiidaArchiveLimits limits, InflationBudget budget) {
        this.entry = entry;
        this.where = where;
        this.data = data;
        this.limits = limits;
        this.budget = budget;
        this.inflater = entry.method() == ZipEntryRecord.DEFLATED ? new Inflater(true) : null;
        this.input = inflater == null ? null : new byte[1 << 16];
    }

    /**
     * Opens {@code entry} of the archive {@code file}: reads its local header (whose name must be the
     * directory's) to find where its data starts.
     */
    static ZipEntryInput open(
            FileChannel channel,
            String file,
            ZipEntryRecord entry,
            long directoryStart,
            AiidaArchiveLimits limits,
            InflationBudget budget)
            throws IOException {
        String where = file + ", entry '" + entry.name() + "'";
        if (entry.encrypted()) {
            throw new InvalidArchiveException(where + " is encrypted, which AiiDA archives never are");
        }
        if (entry.method() != ZipEntryRecord.STORED && entry.method() != ZipEntryRecord.DEFLATED) {
            throw new InvalidArchiveException(where + " uses compression method " + entry.method()
                    + "; AiiDA archives use 0 (stored) or 8" + " (deflated)");
        }
        if (entry.method() == ZipEntryRecord.STORED && entry.compressedSize() != entry.size()) {
            throw new InvalidArchiveException(where + " is stored, yet declares " + entry.compressedSize()
                    + " bytes in the file and " + entry.size() + " uncompressed");
        }
        ByteBuffer h;
        try {
            h = ZipDirectory.read(channel, entry.offset(), LOCAL_SIZE);
        } catch (EOFException e) {
            throw new InvalidArchiveException(where + ": the file ends within its local header (truncated?)", e);
        }
        if (h.getInt(0) != LOCAL) {
            throw new InvalidArchiveException(where + " is corrupt: no local header at " + entry.offset());
        }
        int nameLength = ZipDirectory.u16(h, 26);
        int extraLength = ZipDirectory.u16(h, 28);
        byte[] name = ZipDirectory.read(channel, entry.offset() + LOCAL_SIZE, nameLength)
                .array();
        if (!Arrays.equals(name, entry.name().getBytes(UTF_8))) {
            throw new InvalidArchiveException(
                    where + " is corrupt: its local header names '" + new String(name, UTF_8) + "'");
        }
        long start = entry.offset() + LOCAL_SIZE + nameLength + extraLength;
        if (start + entry.compressedSize() > directoryStart) {
            throw new InvalidArchiveException(
                    where + " is corrupt: its data would run into the central directory (truncated?)");
        }
        int buffer = (int) Math.clamp(entry.compressedSize(), 1, 1 << 16);
        RegionInput data = new RegionInput(channel, start, start + entry.compressedSize(), buffer);
        return new ZipEntryInput(entry, where, data, limits, budget);
    }

    /** The entry's declared uncompressed size. */
    long size() {
        return entry.size();
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (done) {
            return -1;
        }
        if (len == 0) {
            return 0;
        }
        // never inflate a byte beyond the declared size: a larger entry is refused at its first extra byte
        int want = (int) Math.min(len, entry.size() - produced + 1);
        int n;
        try {
            n = inflater == null ? data.read(b, off, want) : inflate(b, off, want);
        } catch (EOFException e) {
            throw new InvalidArchiveException(where + ": " + e.getMessage() + " (truncated?)", e);
        }
        if (n < 0) {
            finish();
            return -1;
        }
        produced += n;
        if (produced > entry.size()) {
            throw new InvalidArchiveException(where + " inflates to more than the " + entry.size()
                    + " bytes it declares: corrupt, or a zip bomb");
        }
        long consumed = inflater == null ? produced : inflater.getBytesRead();
        if (produced > limits.ratioFloor() && produced > limits.maxRatio() * Math.max(consumed, 1)) {
            throw new InvalidArchiveException(where + " inflates " + produced + " bytes from " + consumed
                    + ", more than " + limits.maxRatio() + " times: a zip bomb");
        }
        budget.spend(n, where);
        crc.update(b, off, n);
        if (produced == entry.size() && data.remaining() == 0 && (inflater == null || inflater.finished())) {
            finish();
        }
        return n;
    }

    private int inflate(byte[] b, int off, int len) throws IOException {
        try {
            while (true) {
                int n = inflater.inflate(b, off, len);
                if (n > 0) {
                    return n;
                }
                if (inflater.finished()) {
                    return -1;
                }
                if (inflater.needsDictionary()) {
                    throw new InvalidArchiveException(where + " is corrupt: its deflate stream asks for a dictionary");
                }
                int m = data.read(input, 0, input.length);
                if (m < 0) {
                    throw new InvalidArchiveException(
                            where + " is corrupt: its deflate stream ends early (truncated?)");
                }
                inflater.setInput(input, 0, m);
            }
        } catch (DataFormatException e) {
            throw new InvalidArchiveException(where + " is corrupt: " + e.getMessage(), e);
        }
    }

    private void finish() {
        if (done) {
            return;
        }
        done = true;
        if (produced != entry.size()) {
            throw new InvalidArchiveException(where + " is corrupt: it holds " + produced + " bytes, not the "
                    + entry.size() + " it declares (truncated?)");
        }
        if (crc.getValue() != entry.crc()) {
            throw new InvalidArchiveException(where + " is corrupt: its CRC-32 is " + Long.toHexString(crc.getValue())
                    + ", not " + Long.toHexString(entry.crc()));
        }
        end();
    }

    @Override
    public void close() {
        done = true;
        end();
    }

    private void end() {
        if (inflater != null) {
            inflater.end();
        }
    }
}
