package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.LocalDateTime;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/**
 * Writes a zip the way aiida-core's archive writer does: entries in the order they come, each local header
 * patched once its CRC and sizes are known (no data descriptors), ZIP64 fields where a size or offset needs
 * them, and a central directory whose first records can be chosen: AiiDA lists {@code metadata.json} and
 * {@code db.sqlite3} first although they are written last, and reads {@code metadata.json} from among the
 * first four records only. Records of the other entries wait in a file, not on the heap.
 */
final class ZipWriter implements Closeable {

    /** A written entry, as its central directory record will describe it. */
    record Entry(String name, int method, long crc, long compressedSize, long size, long offset) {}

    private static final int LOCAL = 0x04034b50;
    private static final int CENTRAL = 0x02014b50;
    private static final int END = 0x06054b50;
    private static final int END64 = 0x06064b50;
    private static final int END64_LOCATOR = 0x07064b50;
    private static final long U32 = 0xFFFF_FFFFL;
    /** Sizes from here on get ZIP64 fields up front: deflate may grow incompressible data a little. */
    private static final long ZIP64_SIZE = 0xFFFF_0000L;
    /** Made by Unix (3), as Python's zipfile says; files are rw------- as AiiDA's are. */
    private static final int MADE_BY_UNIX = 3 << 8;

    private static final int EXTERNAL_ATTRIBUTES = 0600 << 16;

    private final FileChannel channel;
    private final Path centralFile;
    private final OutputStream central;
    private final int dosTime;
    private final int dosDate;
    private final byte[] buffer = new byte[1 << 16];
    private final byte[] deflated = new byte[1 << 16];
    /** Appended bytes not yet in the file: small entries' headers and data go out in large writes. */
    private final ByteBuffer pending = little(1 << 20);
    /** Where {@link #pending} starts in the file. */
    private long flushed;

    private long position;
    private long deferred;

    /** A new zip at {@code zip}; the deferred directory records go to {@code centralFile}. */
    ZipWriter(Path zip, Path centralFile, LocalDateTime modified) throws IOException {
        this.channel = FileChannel.open(zip, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        this.centralFile = centralFile;
        this.central = new BufferedOutputStream(Files.newOutputStream(centralFile, StandardOpenOption.CREATE_NEW));
        int year = Math.max(modified.getYear(), 1980);
        this.dosDate = ((year - 1980) << 9) | (modified.getMonthValue() << 5) | modified.getDayOfMonth();
        this.dosTime = (modified.getHour() << 11) | (modified.getMinute() << 5) | (modified.getSecond() / 2);
    }

    /**
     * Writes an entry of {@code size} bytes read from {@code content} (deflated at {@code level}, stored
     * if 0). The caller keeps the returned entry to list it in {@link #finish}, or passes {@code defer} to
     * have its record written among the rest.
     */
    Entry write(String name, InputStream content, long size, int level, boolean defer) throws IOException {
        byte[] encoded = name.getBytes(UTF_8);
        long offset = position;
        boolean zip64 = size >= ZIP64_SIZE;
        int method = level == 0 ? ZipEntryRecord.STORED : ZipEntryRecord.DEFLATED;
        ByteBuffer h = little(30 + encoded.length + (zip64 ? 20 : 0));
        h.putInt(LOCAL)
                .putShort((short) (zip64 ? 45 : 20))
                .putShort((short) flags(name))
                .putShort((short) method)
                .putShort((short) dosTime)
                .putShort((short) dosDate)
                .putInt(0)
                .putInt(zip64 ? -1 : 0)
                .putInt(zip64 ? -1 : 0)
                .putShort((short) encoded.length)
                .putShort((short) (zip64 ? 20 : 0))
                .put(encoded);
        if (zip64) {
            h.putShort((short) 1).putShort((short) 16).putLong(0).putLong(0);
        }
        append(h.flip());
        CRC32 crc = new CRC32();
        long read = 0;
        long start = position;
        Deflater deflater = method == ZipEntryRecord.DEFLATED ? new Deflater(level, true) : null;
        try {
            int n;
            while ((n = content.read(buffer)) > 0) {
                crc.update(buffer, 0, n);
                read += n;
                if (deflater == null) {
                    append(ByteBuffer.wrap(buffer, 0, n));
                } else {
                    deflater.setInput(buffer, 0, n);
                    while (!deflater.needsInput()) {
                        drain(deflater);
                    }
                }
            }
            if (deflater != null) {
                deflater.finish();
                while (!deflater.finished()) {
                    drain(deflater);
                }
            }
        } finally {
            if (deflater != null) {
                deflater.end();
            }
        }
        if (read != size) {
            throw new IOException("entry " + name + " was to have " + size + " bytes, but its content had " + read);
        }
        long compressed = position - start;
        if (!zip64 && compressed >= U32) {
            throw new IOException("entry " + name + " deflated to " + compressed + " bytes, past what a zip without"
                    + " ZIP64 fields holds");
        }
        // patch the local header now the CRC and sizes are known
        ByteBuffer patch = little(12).putInt((int) crc.getValue());
        patch.putInt(zip64 ? -1 : (int) compressed).putInt(zip64 ? -1 : (int) size);
        patch(patch.flip(), offset + 14);
        if (zip64) {
            patch(little(16).putLong(size).putLong(compressed).flip(), offset + 30 + encoded.length + 4);
        }
        Entry entry = new Entry(name, method, crc.getValue(), compressed, size, offset);
        if (defer) {
            central.write(centralRecord(entry));
            deferred++;
        }
        return entry;
    }

    /**
     * Writes the central directory, {@code first} before the deferred records, and the end records; closes
     * the file.
     */
    void finish(Entry... first) throws IOException {
        central.close();
        long start = position;
        for (Entry e : first) {
            append(ByteBuffer.wrap(centralRecord(e)));
        }
        try (InputStream in = Files.newInputStream(centralFile)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                append(ByteBuffer.wrap(buffer, 0, n));
            }
        }
        long length = position - start;
        long entries = first.length + deferred;
        if (entries >= 0xFFFF || length >= U32 || start >= U32) {
            long end64 = position;
            ByteBuffer z = little(56 + 20);
            z.putInt(END64).putLong(44).putShort((short) (MADE_BY_UNIX | 45)).putShort((short) 45);
            z.putInt(0)
                    .putInt(0)
                    .putLong(entries)
                    .putLong(entries)
                    .putLong(length)
                    .putLong(start);
            z.putInt(END64_LOCATOR).putInt(0).putLong(end64).putInt(1);
            append(z.flip());
        }
        ByteBuffer end = little(22);
        end.putInt(END).putShort((short) 0).putShort((short) 0);
        end.putShort((short) Math.min(entries, 0xFFFF)).putShort((short) Math.min(entries, 0xFFFF));
        end.putInt((int) Math.min(length, U32))
                .putInt((int) Math.min(start, U32))
                .putShort((short) 0);
        append(end.flip());
        flush();
        channel.force(true);
        channel.close();
    }

    private byte[] centralRecord(Entry e) {
        byte[] encoded = e.name().getBytes(UTF_8);
        boolean bigSize = e.size() >= U32;
        boolean bigCompressed = e.compressedSize() >= U32;
        boolean bigOffset = e.offset() >= U32;
        int extra = (bigSize ? 8 : 0) + (bigCompressed ? 8 : 0) + (bigOffset ? 8 : 0);
        boolean zip64 = extra > 0 || e.size() >= ZIP64_SIZE;
        ByteBuffer c = little(46 + encoded.length + (extra > 0 ? extra + 4 : 0));
        c.putInt(CENTRAL)
                .putShort((short) (MADE_BY_UNIX | (zip64 ? 45 : 20)))
                .putShort((short) (zip64 ? 45 : 20))
                .putShort((short) flags(e.name()))
                .putShort((short) e.method())
                .putShort((short) dosTime)
                .putShort((short) dosDate)
                .putInt((int) e.crc())
                .putInt(bigCompressed ? -1 : (int) e.compressedSize())
                .putInt(bigSize ? -1 : (int) e.size())
                .putShort((short) encoded.length)
                .putShort((short) (extra > 0 ? extra + 4 : 0))
                .putShort((short) 0)
                .putShort((short) 0)
                .putShort((short) 0)
                .putInt(EXTERNAL_ATTRIBUTES)
                .putInt(bigOffset ? -1 : (int) e.offset())
                .put(encoded);
        if (extra > 0) {
            // ZIP64: 8-byte values for exactly the saturated fields, in this order
            c.putShort((short) 1).putShort((short) extra);
            if (bigSize) {
                c.putLong(e.size());
            }
            if (bigCompressed) {
                c.putLong(e.compressedSize());
            }
            if (bigOffset) {
                c.putLong(e.offset());
            }
        }
        return c.array();
    }

    /** Bit 11 says the name is UTF-8; AiiDA's names are ASCII and leave it clear. */
    private static int flags(String name) {
        return name.chars().allMatch(ch -> ch < 0x80) ? 0 : 0x800;
    }

    private void drain(Deflater deflater) throws IOException {
        int n = deflater.deflate(deflated);
        if (n > 0) {
            append(ByteBuffer.wrap(deflated, 0, n));
        }
    }

    private void append(ByteBuffer b) throws IOException {
        int n = b.remaining();
        if (n > pending.remaining()) {
            flush();
        }
        if (n > pending.remaining()) {
            write(b, position);
            flushed += n;
        } else {
            pending.put(b);
        }
        position += n;
    }

    /** Overwrites bytes already appended: in the buffer if they are still there, else in the file. */
    private void patch(ByteBuffer b, long at) throws IOException {
        if (at < flushed && at + b.remaining() > flushed) {
            flush();
        }
        if (at >= flushed) {
            pending.put((int) (at - flushed), b, b.position(), b.remaining());
        } else {
            write(b, at);
        }
    }

    private void flush() throws IOException {
        pending.flip();
        write(pending, flushed);
        flushed += pending.limit();
        pending.clear();
    }

    private void write(ByteBuffer b, long at) throws IOException {
        long p = at;
        while (b.hasRemaining()) {
            p += channel.write(b, p);
        }
    }

    private static ByteBuffer little(int size) {
        return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public void close() throws IOException {
        central.close();
        channel.close();
    }
}
