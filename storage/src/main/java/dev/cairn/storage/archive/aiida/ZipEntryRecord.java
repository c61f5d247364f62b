package dev.cairn.storage.archive.aiida;

/**
 * One entry of a zip file's central directory, with the ZIP64 values already substituted. The sizes
 * are what the directory declares: the readers check them against the bytes actually inflated.
 *
 * @param name           the entry's name, decoded as UTF-8
 * @param method         0 (stored) or 8 (deflated); anything else is refused when it is read
 * @param flags          the general purpose flags (bit 0: encrypted)
 * @param crc            the declared CRC-32 of the uncompressed bytes
 * @param compressedSize the declared size of the data in the file
 * @param size           the declared size once uncompressed
 * @param offset         where the entry's local header starts
 */
record ZipEntryRecord(String name, int method, int flags, long crc, long compressedSize, long size, long offset) {

    static final int STORED = 0;
    static final int DEFLATED = 8;

    boolean encrypted() {
        return (flags & 1) != 0;
    }

    boolean directory() {
        return name.endsWith("/");
    }
}
