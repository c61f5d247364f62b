package dev.cairn.storage.archive.aiida;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

import dev.cairn.storage.archive.InvalidArchiveException;

/**
 * An object's bytes, whose SHA-256 must be the key they are stored under: checked the moment the last
 * declared byte is read (a reader that stops there, without asking for the end, is still covered).
 */
final class Sha256Input extends FilterInputStream {

    private final MessageDigest digest;
    private final String key;
    private final long size;
    private final String where;
    private long count;

    Sha256Input(InputStream in, String key, long size, String where) {
        super(in);
        this.key = key;
        this.size = size;
        this.where = where;
        try {
            this.digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        if (size == 0) {
            check();
        }
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = in.read(b, off, len);
        if (n > 0) {
            digest.update(b, off, n);
            count += n;
            if (count == size) {
                check();
            }
        }
        return n;
    }

    @Override
    public long skip(long n) throws IOException {
        // skipped bytes are read all the same: the check needs them
        byte[] buffer = new byte[(int) Math.min(Math.max(n, 0), 8192)];
        long skipped = 0;
        while (skipped < n) {
            int m = read(buffer, 0, (int) Math.min(buffer.length, n - skipped));
            if (m < 0) {
                break;
            }
            skipped += m;
        }
        return skipped;
    }

    @Override
    public boolean markSupported() {
        return false;
    }

    private void check() {
        String actual = HexFormat.of().formatHex(digest.digest());
        if (!actual.equals(key)) {
            throw new InvalidArchiveException(
                    where + " is corrupt: its SHA-256 is " + actual + ", not the key it is stored under");
        }
    }
}
