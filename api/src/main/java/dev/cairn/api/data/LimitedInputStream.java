package dev.cairn.api.data;

import java.io.InputStream;

import org.springframework.web.multipart.MaxUploadSizeExceededException;

/**
 * A request body read up to the upload limit: one byte more ends the upload with a 413, as a
 * multipart upload over the limit is ended, whatever the client declared (a chunked body declares
 * nothing). The object being written is then dropped by the object store.
 */
final class LimitedInputStream extends CountedInputStream {

    private final long limit;
    private long read;

    LimitedInputStream(InputStream in, long limit) {
        super(in);
        this.limit = limit;
    }

    @Override
    void counted(long n) {
        if (n < 0) {
            return;
        }
        read += n;
        if (read > limit) {
            throw new MaxUploadSizeExceededException(limit);
        }
    }
}
