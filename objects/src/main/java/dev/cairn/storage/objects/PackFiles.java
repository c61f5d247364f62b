package dev.cairn.storage.objects;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The pack files {@code packs/0}, {@code packs/1}, … for reading. Channels stay open and are shared by
 * all threads (positional reads need no lock). An open channel keeps a pack readable even after a repack
 * in another process deleted it, which is what makes stale cache entries harmless.
 */
final class PackFiles implements AutoCloseable {

    static final String FOLDER = "packs";

    private final Path dir;
    private final Map<Integer, FileChannel> open = new ConcurrentHashMap<>();

    PackFiles(Path containerRoot) {
        this.dir = containerRoot.resolve(FOLDER);
    }

    Path path(int pack) {
        return dir.resolve(Integer.toString(pack));
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

    /** Reads exactly {@code buf.remaining()} bytes at {@code position} of a pack. */
    void readFully(int pack, long position, ByteBuffer buf) throws IOException {
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

    /** The stored bytes of an entry. */
    byte[] read(PackEntry e) throws IOException {
        if (e.length() > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(
                    "object " + e.key() + " has " + e.length() + " stored bytes: read it as a stream");
        }
        byte[] b = new byte[(int) e.length()];
        readFully(e.pack(), e.offset(), ByteBuffer.wrap(b));
        return b;
    }

    /** A stream of the stored bytes of an entry, read in chunks by position. */
    InputStream stream(PackEntry e) throws IOException {
        return new RegionStream(channel(e.pack()), e.offset(), e.length());
    }

    /** Pack ids of the files in {@code packs/}, with their sizes; names that are not numbers are left out. */
    Map<Integer, Long> onDisk() throws IOException {
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
    void forget(int pack) throws IOException {
        FileChannel ch = open.remove(pack);
        if (ch != null) {
            ch.close();
        }
    }

    @Override
    public void close() throws IOException {
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
