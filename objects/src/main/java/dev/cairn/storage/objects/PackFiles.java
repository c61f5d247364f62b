package dev.cairn.storage.objects;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The packs of a container in a folder: the files {@code packs/0}, {@code packs/1}, …. Channels stay open and are shared by
 * all threads (positional reads need no lock). An open channel keeps a pack readable even after a repack
 * in another process deleted it, which is what makes stale cache entries harmless.
 *
 * <p>Packs can also be read through {@linkplain #window memory mappings}, for bulk reads of scattered small
 * objects: a positional read costs a system call (about a microsecond here, more than copying a small
 * object), a copy out of a mapping costs none once its pages are mapped. Mappings last as long as the
 * channels, so they keep a deleted pack readable in the same way.
 */
final class PackFiles implements Packs {

    static final String FOLDER = "packs";

    /**
     * A pack is mapped in windows of 1 GiB (a {@link MappedByteBuffer} holds at most 2 GiB) aligned on
     * multiples of their size, so a window never moves; the last one grows with its pack.
     */
    static final int WINDOW_BITS = 30;

    /**
     * A window is mapped again to take in what its pack gained only once it gained this much, so that a
     * pack appended to in small batches is not remapped at every read; its new tail is read by position
     * meanwhile.
     */
    static final long REMAP_STEP = 16 << 20;

    /**
     * Bytes {@code [start, start + buffer.capacity())} of a pack, mapped read-only; shared by all threads,
     * so it is only read with absolute gets, which leave its position alone.
     */
    record Window(int pack, long start, MappedByteBuffer buffer) {

        long end() {
            return start + buffer.capacity();
        }

        /** Whether this window holds bytes {@code [from, to)} of {@code pack}. */
        boolean holds(int pack, long from, long to) {
            return this.pack == pack && from >= start && to <= end();
        }
    }

    private final Path dir;
    private final Map<Integer, FileChannel> open = new ConcurrentHashMap<>();
    /** By pack id in the high 32 bits and window number in the low ones. */
    private final Map<Long, Window> windows = new ConcurrentHashMap<>();

    private final int windowBits;
    private final long remapStep;

    PackFiles(Path containerRoot) {
        this(containerRoot, WINDOW_BITS, REMAP_STEP);
    }

    /** With other window sizes than a container's: for tests of windows without gigabytes of packs. */
    PackFiles(Path containerRoot, int windowBits, long remapStep) {
        this.dir = containerRoot.resolve(FOLDER);
        this.windowBits = windowBits;
        this.remapStep = remapStep;
    }

    Path path(int pack) {
        return dir.resolve(Integer.toString(pack));
    }

    @Override
    public Optional<Path> file(int pack) {
        return Optional.of(path(pack));
    }

    @Override
    public boolean appendable() {
        return true;
    }

    @Override
    public FileChannel openForWrite(int pack) throws IOException {
        return FileChannel.open(path(pack), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    }

    /** Syncs the written packs (when asked), and the folder when it gained a pack, so the names survive a crash. */
    @Override
    public void publish(Map<Integer, FileChannel> written, Set<Integer> created, boolean sync) throws IOException {
        if (!sync) {
            return;
        }
        for (FileChannel c : written.values()) {
            c.force(false);
        }
        if (!created.isEmpty()) {
            Durability.fsyncDirectory(dir);
        }
    }

    @Override
    public void finish(int pack, FileChannel written) throws IOException {
        written.close();
    }

    @Override
    public void discard(int pack, FileChannel written, long committedSize) throws IOException {
        if (committedSize >= 0) {
            written.truncate(committedSize);
            written.close();
        } else {
            if (written != null) {
                written.close();
            }
            Files.deleteIfExists(path(pack));
        }
    }

    @Override
    public void delete(int pack) throws IOException {
        forget(pack);
        Files.deleteIfExists(path(pack));
    }

    /** Truncates bytes past the committed mark and deletes pack files the index does not know. */
    @Override
    public void repairLeftovers(Map<Integer, Long> committed) throws IOException {
        for (Map.Entry<Integer, Long> f : stored().entrySet()) {
            Long size = committed.get(f.getKey());
            if (size == null) {
                delete(f.getKey());
            } else if (f.getValue() > size) {
                try (FileChannel c = FileChannel.open(path(f.getKey()), StandardOpenOption.WRITE)) {
                    c.truncate(size);
                    c.force(false);
                }
            }
        }
    }

    Path dir() {
        return dir;
    }

    FileChannel channel(int pack) throws IOException {
        FileChannel ch = open.get(pack);
        if (ch == null || !ch.isOpen()) {
            // (closed: a thread was interrupted in a read, which closes a FileChannel for every user)
            synchronized (open) {
                ch = open.get(pack);
                if (ch == null || !ch.isOpen()) {
                    ch = FileChannel.open(path(pack), StandardOpenOption.READ);
                    open.put(pack, ch);
                }
            }
        }
        return ch;
    }

    @Override
    public void readFully(int pack, long position, ByteBuffer buf) throws IOException {
        FileChannel ch = channel(pack);
        long pos = position;
        while (buf.hasRemaining()) {
            int n = ch.read(buf, pos);
            if (n < 0) {
                throw new EOFException("pack " + pack + " ends at " + pos + " before the indexed object does");
            }
            pos += n;
        }
    }

    /**
     * A mapped window holding bytes {@code [from, to)} of a pack, or null when no window can: the range
     * crosses a window boundary, or lies past what the pack held when its window was mapped and the pack
     * has not grown by {@link #REMAP_STEP} since, or past the pack's end (the caller reads it by position
     * instead, which reports a pack too short).
     *
     * <p>The mapping is unmapped by the garbage collector once no window refers to it: Java 21 has no
     * public way to unmap earlier. Pack bytes below a committed size are never rewritten or truncated,
     * so what a window shows of indexed objects stays valid for as long as it exists. Each call checks
     * the pack's size (one {@code fstat}), so a pack cut short by damage is read by position and reported.
     * Only a pack cut short by hand while a read copies from its window would fail that read otherwise,
     * with the JVM's {@link InternalError} for a fault in a mapping.
     */
    @Override
    public Window window(int pack, long from, long to) throws IOException {
        long index = from >>> windowBits;
        if (to > from && (to - 1) >>> windowBits != index) {
            return null;
        }
        long id = ((long) pack << 32) | index;
        Window w = windows.get(id);
        if (w != null && to <= w.end()) {
            // A pack is never shortened below what is indexed, unless damaged: then touching the missing
            // pages would fail; a read by position reports it instead.
            return channel(pack).size() >= w.end() ? w : null;
        }
        synchronized (windows) {
            w = windows.get(id);
            if (w != null && to <= w.end()) {
                return w;
            }
            FileChannel ch = channel(pack);
            long start = index << windowBits;
            long end = Math.min(ch.size(), start + (1L << windowBits));
            if (end < to || (w != null && end - w.end() < remapStep)) {
                return null;
            }
            w = new Window(pack, start, ch.map(FileChannel.MapMode.READ_ONLY, start, end - start));
            windows.put(id, w);
            return w;
        }
    }

    /** How many windows are mapped now. */
    int mappedWindows() {
        return windows.size();
    }

    /** Read in chunks by position. */
    @Override
    public InputStream stream(PackEntry e) throws IOException {
        return new RegionStream(channel(e.pack()), e.offset(), e.length());
    }

    @Override
    public Map<Integer, Long> stored() throws IOException {
        Map<Integer, Long> found = new TreeMap<>();
        if (!Files.isDirectory(dir)) {
            return found;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (name.matches("0|[1-9][0-9]{0,8}")) {
                    found.put(Integer.parseInt(name), Files.size(f));
                }
            }
        }
        return found;
    }

    /** Closes the channel of a pack about to be deleted or truncated. */
    private void forget(int pack) throws IOException {
        windows.keySet().removeIf(id -> (int) (id >>> 32) == pack);
        FileChannel ch = open.remove(pack);
        if (ch != null) {
            ch.close();
        }
    }

    @Override
    public void close() throws IOException {
        windows.clear();
        for (FileChannel ch : open.values()) {
            ch.close();
        }
        open.clear();
    }

    /** Reads a region of a channel by position, so many streams share one channel. */
    private static final class RegionStream extends InputStream {
        private final FileChannel ch;
        private long pos;
        private final long end;

        RegionStream(FileChannel ch, long offset, long length) {
            this.ch = ch;
            this.pos = offset;
            this.end = offset + length;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (len == 0) {
                return 0;
            }
            if (pos >= end) {
                return -1;
            }
            int want = (int) Math.min(len, end - pos);
            int n = ch.read(ByteBuffer.wrap(b, off, want), pos);
            if (n < 0) {
                throw new EOFException("pack ends at " + pos + " before the object does");
            }
            pos += n;
            return n;
        }

        @Override
        public long skip(long n) {
            long k = Math.max(0, Math.min(n, end - pos));
            pos += k;
            return k;
        }

        @Override
        public int available() {
            return (int) Math.min(Integer.MAX_VALUE, end - pos);
        }
    }
}
