package dev.cairn.api.data;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

import org.springframework.web.multipart.MaxUploadSizeExceededException;

/**
 * A request body read up to the upload limit: one byte more ends the upload with a 413, as a
 * multipart upload over the limit is ended, whatever the client declared (a chunked body declares
 * nothing). The object being written is then dropped by the object store.
 */
final class LimitedInputStream extends FilterInputStream {

    private final long limit;
    private long read;

    LimitedInputStream(InputStream in, long limit) {
        super(in);
        this.limit = limit;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count(1);
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            count(n);
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        long skipped = super.skip(n);
        count(skipped);
        return skipped;
    }

    private void count(long n) {
        read += n;
        if (read > limit) {
            throw new MaxUploadSizeExceededException(limit);
        }
    }
}
