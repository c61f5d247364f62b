package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A stream of a range of a local file: what an upload of a whole file, or of one part of it, reads. Each
 * stream opens the file anew, so a request that is retried reads its bytes again from the start.
 */
final class FileSlice extends InputStream {
    private final InputStream in;
    private long left;

    private FileSlice(InputStream in, long length) {
        this.in = in;
        this.left = length;
    }

    /** The {@code length} bytes of {@code file} from {@code from}; unchecked, as the SDK's content providers are. */
    static InputStream open(Path file, long from, long length) {
        try {
            FileChannel ch = FileChannel.open(file, StandardOpenOption.READ);
            ch.position(from);
            return new FileSlice(Channels.newInputStream(ch), length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public int read() throws IOException {
        if (left <= 0) {
            return -1;
        }
        int b = in.read();
        if (b >= 0) {
            left--;
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (left <= 0) {
            return -1;
        }
        int n = in.read(b, off, (int) Math.min(len, left));
        if (n > 0) {
            left -= n;
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
