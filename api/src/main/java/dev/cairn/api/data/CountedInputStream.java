package dev.cairn.api.data;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** A request body whose bytes are counted as they are read, for a subclass to end it when it breaks a rule. */
abstract class CountedInputStream extends FilterInputStream {

    CountedInputStream(InputStream in) {
        super(in);
    }

    /** Told of every {@code n} bytes read, and of the end with {@code n} = -1. */
    abstract void counted(long n);

    @Override
    public int read() throws IOException {
        int b = super.read();
        counted(b < 0 ? -1 : 1);
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n != 0) {
            counted(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        counted(skipped);
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }
}
