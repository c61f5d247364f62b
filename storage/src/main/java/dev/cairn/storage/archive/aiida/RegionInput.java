package dev.cairn.storage.archive.aiida;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The bytes {@code [start, end)} of a file, read with positional reads: the channel's own position is
 * never moved, so regions of one file can be read one after the other without seeking back.
 */
final class RegionInput extends InputStream {

    private final FileChannel channel;
    private final ByteBuffer buffer;
    private long position;
    private final long end;

    RegionInput(FileChannel channel, long start, long end, int bufferSize) {
        this.channel = channel;
        this.position = start;
        this.end = end;
        this.buffer = ByteBuffer.allocate(bufferSize);
        buffer.flip();
    }

    /** Bytes left in the region, counting those already buffered. */
    long remaining() {
        return end - position + buffer.remaining();
    }

    @Override
    public int read() throws IOException {
        if (!fill()) {
            return -1;
        }
        return buffer.get() & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(len, buffer.remaining());
        buffer.get(b, off, n);
        return n;
    }

    /** Reads exactly {@code b.length} bytes, or fails saying what was being read. */
    void readFully(byte[] b, String what) throws IOException {
        int done = 0;
        while (done < b.length) {
            int n = read(b, done, b.length - done);
            if (n < 0) {
                throw new EOFException("the file ends within " + what);
            }
            done += n;
        }
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = Math.min(Math.max(n, 0), remaining());
        long fromBuffer = Math.min(skipped, buffer.remaining());
        buffer.position(buffer.position() + (int) fromBuffer);
        position += skipped - fromBuffer;
        return skipped;
    }

    private boolean fill() throws IOException {
        if (buffer.hasRemaining()) {
            return true;
        }
        if (position >= end) {
            return false;
        }
        buffer.clear();
        buffer.limit((int) Math.min(buffer.capacity(), end - position));
        int n = channel.read(buffer, position);
        if (n < 0) {
            // the file is shorter than its directory says
            buffer.flip();
            throw new EOFException("the file ends at byte " + position + ", before byte " + end);
        }
        position += n;
        buffer.flip();
        return buffer.hasRemaining() || fill();
    }
}
