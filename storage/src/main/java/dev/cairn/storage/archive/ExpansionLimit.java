package dev.cairn.storage.archive;

/**
 * How far a reader lets an archive expand: past {@code freeBytes} of decompressed bytes, at most
 * {@code ratio} times the bytes read from the file. Real archives expand 2-20 fold (JSON rows, text
 * outputs); a small file that would fill the disk with zeros is refused as a compression bomb.
 */
record ExpansionLimit(long freeBytes, long ratio) {

    static final ExpansionLimit DEFAULT = new ExpansionLimit(1L << 30, 1000);

    /** Fails when {@code raw} decompressed bytes from {@code stored} file bytes go past the limit. */
    void check(long stored, long raw) {
        if (raw > freeBytes && raw > ratio * stored) {
            throw new InvalidArchiveException("the archive expands more than " + ratio + "-fold (" + raw
                    + " bytes from " + stored + "): refused as a compression bomb");
        }
    }
}
