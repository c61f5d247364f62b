package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;

/**
 * A decoded stream that checks, at its end, that it gave exactly the indexed number of bytes; the
 * codecs' own checksums catch damage inside compressed data.
 */
final class CheckedStream extends InputStream {
    private final PackEntry entry;
    private final InputStream in;
    private long count;

    CheckedStream(PackEntry entry, InputStream in) {
        this.entry = entry;
        this.in = in;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n;
        try {
            n = in.read(b, off, len);
        } catch (IOException | RuntimeException e) {
            if (e instanceof ObjectStoreException ose) {
                throw ose;
            }
            throw new CorruptObjectException(entry.key(), "its stored bytes do not decode: " + e.getMessage(), e);
        }
        if (n < 0) {
            if (count != entry.size()) {
                throw new CorruptObjectException(
                        entry.key(), "it decodes to " + count + " bytes instead of " + entry.size());
            }
            return -1;
        }
        count += n;
        if (count > entry.size()) {
            throw new CorruptObjectException(entry.key(), "it decodes to more than its " + entry.size() + " bytes");
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
