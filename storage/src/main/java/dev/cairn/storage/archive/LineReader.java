package dev.cairn.storage.archive;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The lines of a stream of newline-delimited JSON, one at a time, in a buffer that grows to the longest
 * line: no line is copied into a String before it is parsed.
 */
final class LineReader {

    private final InputStream in;
    private byte[] buffer = new byte[1 << 16];
    /** Bytes read into the buffer, and where the next line starts. */
    private int filled;

    private int start;
    private byte[] line = new byte[1 << 12];
    private int length;
    private boolean ended;

    LineReader(InputStream in) {
        this.in = in;
    }

    /** Moves to the next line (without its {@code \n}); false at the end of the stream. */
    boolean next() throws IOException {
        length = 0;
        while (true) {
            for (int i = start; i < filled; i++) {
                if (buffer[i] == '\n') {
                    append(start, i - start);
                    start = i + 1;
                    return true;
                }
            }
            append(start, filled - start);
            start = 0;
            filled = 0;
            if (ended) {
                return length > 0;
            }
            int n = in.read(buffer, 0, buffer.length);
            if (n < 0) {
                ended = true;
            } else {
                filled = n;
            }
        }
    }

    /** The line's bytes, valid until the next call of {@link #next}; {@link #length} of them count. */
    byte[] bytes() {
        return line;
    }

    int length() {
        return length;
    }

    private void append(int from, int n) {
        if (n == 0) {
            return;
        }
        if (length + n > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, length + n));
        }
        System.arraycopy(buffer, from, line, length, n);
        length += n;
    }
}
