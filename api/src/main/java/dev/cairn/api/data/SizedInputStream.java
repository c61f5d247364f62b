package dev.cairn.api.data;

import java.io.InputStream;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * A body that must be exactly {@code size} bytes, as a file's header said: one that ends sooner or
 * goes on longer is refused as it is read, so the node being stored with it is not.
 */
final class SizedInputStream extends CountedInputStream {

    private final long size;
    private final String what;
    private long read;

    /** @param what what the size is, for the refusal: "the header's shape (2, 3) needs" */
    SizedInputStream(InputStream in, long size, String what) {
        super(in);
        this.size = size;
        this.what = what;
    }

    @Override
    void counted(long n) {
        if (n < 0) {
            if (read != size) {
                throw new InvalidInputException(what + " " + size + " bytes, the body ended after " + read);
            }
            return;
        }
        read += n;
        if (read > size) {
            throw new InvalidInputException(what + " " + size + " bytes, the body is longer");
        }
    }
}
