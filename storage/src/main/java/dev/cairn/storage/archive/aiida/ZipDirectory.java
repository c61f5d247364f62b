package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

import dev.cairn.storage.archive.InvalidArchiveException;

/**
 * A zip file's central directory, read as a stream of records: a million entries cost no more memory
 * than one (the JDK's {@code ZipFile} holds the whole directory on the heap, about 120 bytes an entry).
 * Reads ZIP64; refuses split archives.
 */
final class ZipDirectory {

    private static final int END = 0x06054b50;
    private static final int END64 = 0x06064b50;
    private static final int END64_LOCATOR = 0x07064b50;
    private static final int CENTRAL = 0x02014b50;
    private static final int END_SIZE = 22;
    private static final int CENTRAL_SIZE = 46;
    private static final long U32 = 0xFFFF_FFFFL;

    /** Receives the directory's records in the order the directory lists them. */
    interface Visitor {
        void entry(ZipEntryRecord entry) throws IOException;
    }

    private final FileChannel channel;
    private final String file;
    private final long entries;
    private final long start;
    private final long length;

    private ZipDirectory(FileChannel channel, String file, long entries, long start, long length) {
        this.channel = channel;
        this.file = file;
        this.entries = entries;
        this.start = start;
        this.length = length;
    }

    /** Finds the directory from the end records; {@code file} names the archive in messages. */
    static ZipDirectory locate(FileChannel channel, String file) throws IOException {
        long size = channel.size();
        if (size < END_SIZE) {
            throw new InvalidArchiveException(
                    file + " is not a zip file: " + size + " bytes, fewer than a zip's end record (truncated?)");
        }
        int tail = (int) Math.min(size, END_SIZE + 0xFFFF);
        ByteBuffer b = read(channel, size - tail, tail);
        int at = -1;
        // the end record is followed only by its comment, whose length it gives
        for (int i = tail - END_SIZE; i >= 0; i--) {
            if (b.getInt(i) == END && i + END_SIZE + u16(b, i + 20) == tail) {
                at = i;
                break;
            }
        }
        if (at < 0) {
            throw new InvalidArchiveException(
                    file + " is not a zip file: it has no end of central directory record (truncated, or not a zip)");
        }
        long endPosition = size - tail + at;
        if (u16(b, at + 4) != 0 || u16(b, at + 6) != 0) {
            throw new InvalidArchiveException(file + " is a split (multi-disk) zip, which is not supported");
        }
        long entries = u16(b, at + 10);
        long length = u32(b, at + 12);
        long start = u32(b, at + 16);
        long directoryEnd = endPosition;
        if (entries == 0xFFFF || length == U32 || start == U32) {
            if (endPosition < 20 + 56) {
                throw new InvalidArchiveException(file + " is corrupt: its end record asks for ZIP64 records it lacks");
            }
            ByteBuffer locator = read(channel, endPosition - 20, 20);
            if (locator.getInt(0) != END64_LOCATOR) {
                throw new InvalidArchiveException(file + " is corrupt: its end record asks for a ZIP64 end record,"
                        + " but no ZIP64 locator precedes it");
            }
            long end64 = locator.getLong(8);
            if (end64 < 0 || end64 > endPosition - 20 - 56) {
                throw new InvalidArchiveException(file + " is corrupt: its ZIP64 end record would lie at " + end64);
            }
            ByteBuffer z = read(channel, end64, 56);
            if (z.getInt(0) != END64) {
                throw new InvalidArchiveException(file + " is corrupt: no ZIP64 end record at " + end64);
            }
            entries = z.getLong(32);
            length = z.getLong(40);
            start = z.getLong(48);
            directoryEnd = end64;
        }
        if (entries < 0 || start < 0 || length < 0 || start + length > directoryEnd) {
            throw new InvalidArchiveException(file + " is corrupt: its central directory (" + length + " bytes at "
                    + start + ") does not end before its end record at " + directoryEnd + " (truncated?)");
        }
        return new ZipDirectory(channel, file, entries, start, length);
    }

    /** The number of entries the end record declares (and {@link #read} delivers). */
    long entries() {
        return entries;
    }

    /** Where the directory starts: every entry's data lies before it. */
    long start() {
        return start;
    }

    /** Reads every record, checking each against the directory's bounds. */
    void read(Visitor visitor) throws IOException {
        RegionInput in = new RegionInput(channel, start, start + length, 1 << 16);
        byte[] fixed = new byte[CENTRAL_SIZE];
        ByteBuffer h = ByteBuffer.wrap(fixed).order(ByteOrder.LITTLE_ENDIAN);
        for (long n = 0; n < entries; n++) {
            String where = "central directory record " + (n + 1) + " of " + entries;
            try {
                in.readFully(fixed, where);
                if (h.getInt(0) != CENTRAL) {
                    throw new InvalidArchiveException(file + " is corrupt: " + where + " has no record signature");
                }
                byte[] name = new byte[u16(h, 28)];
                byte[] extra = new byte[u16(h, 30)];
                int comment = u16(h, 32);
                in.readFully(name, where);
                in.readFully(extra, where);
                if (in.skip(comment) != comment) {
                    throw new EOFException("the file ends within " + where);
                }
                visitor.entry(record(h, new String(name, UTF_8), extra, where));
            } catch (EOFException e) {
                throw new InvalidArchiveException(
                        file + " is corrupt: its central directory ends within " + where + " (the end record declares "
                                + entries + " entries)",
                        e);
            }
        }
        if (in.remaining() != 0) {
            throw new InvalidArchiveException(file + " is corrupt: " + in.remaining()
                    + " bytes of its central directory follow the " + entries + " entries its end record declares");
        }
    }

    private ZipEntryRecord record(ByteBuffer h, String name, byte[] extra, String where) {
        long compressed = u32(h, 20);
        long size = u32(h, 24);
        long offset = u32(h, 42);
        if (compressed == U32 || size == U32 || offset == U32) {
            ByteBuffer x = ByteBuffer.wrap(extra).order(ByteOrder.LITTLE_ENDIAN);
            boolean found = false;
            while (x.remaining() >= 4) {
                int id = u16(x, x.position());
                int len = u16(x, x.position() + 2);
                x.position(x.position() + 4);
                if (len > x.remaining()) {
                    break;
                }
                if (id == 1) {
                    // ZIP64: 8-byte values for exactly the fields saturated above, in this order
                    ByteBuffer z = x.slice(x.position(), len).order(ByteOrder.LITTLE_ENDIAN);
                    try {
                        size = size == U32 ? z.getLong() : size;
                        compressed = compressed == U32 ? z.getLong() : compressed;
                        offset = offset == U32 ? z.getLong() : offset;
                    } catch (RuntimeException e) {
                        throw new InvalidArchiveException(
                                file + " is corrupt: " + where + " ('" + name + "') has a short ZIP64 field");
                    }
                    found = true;
                }
                x.position(x.position() + len);
            }
            if (!found) {
                throw new InvalidArchiveException(
                        file + " is corrupt: " + where + " ('" + name + "') lacks the ZIP64 field its sizes ask for");
            }
        }
        if (compressed < 0 || size < 0 || offset < 0 || offset + compressed > start) {
            throw new InvalidArchiveException(file + " is corrupt: " + where + " ('" + name + "') places " + compressed
                    + " bytes at " + offset + ", past the start of the central directory at " + start);
        }
        return new ZipEntryRecord(name, u16(h, 10), u16(h, 8), u32(h, 16), compressed, size, offset);
    }

    static ByteBuffer read(FileChannel channel, long position, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            if (channel.read(b, position + b.position()) < 0) {
                throw new EOFException("the file ends before byte " + (position + length));
            }
        }
        return b.flip();
    }

    static int u16(ByteBuffer b, int at) {
        return b.getShort(at) & 0xFFFF;
    }

    static long u32(ByteBuffer b, int at) {
        return b.getInt(at) & U32;
    }
}
