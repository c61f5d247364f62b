package dev.cairn.storage.archive.aiida;

/**
 * How much an AiiDA archive may hold before {@link AiidaArchiveReader} refuses it as a zip bomb. The
 * sizes a zip declares are not trusted: the reader counts the bytes as it inflates them and stops at the
 * first byte past a limit.
 *
 * @param maxEntries    entries in the zip's central directory
 * @param maxTotalBytes bytes inflated from the whole archive (the database, the metadata and every object
 *                      read)
 * @param maxRatio      how many times larger than its compressed bytes an entry may inflate, and the whole
 *                      archive than its file; deflate reaches about 1032 at most, on long runs of one byte
 * @param ratioFloor    bytes an entry (or the archive) may inflate before {@code maxRatio} applies: small
 *                      files of zeros legitimately compress a hundredfold and more
 */
record AiidaArchiveLimits(long maxEntries, long maxTotalBytes, long maxRatio, long ratioFloor) {

    public AiidaArchiveLimits {
        if (maxEntries < 2 || maxTotalBytes < 1 || maxRatio < 1 || ratioFloor < 0) {
            throw new IllegalArgumentException("limits must be positive (and at least two entries: the metadata and"
                    + " the database): " + maxEntries + ", " + maxTotalBytes + ", " + maxRatio + ", " + ratioFloor);
        }
    }

    /**
     * Ten million entries, 1 TiB in all, and 1000-fold past 64 MiB (as Cairn's own format allows): far
     * beyond the archives AiiDA users share (theirs inflate some tenfold), while a bomb is stopped after a
     * thousand times the bytes it occupies, however it spreads them over entries.
     */
    public static AiidaArchiveLimits defaults() {
        return new AiidaArchiveLimits(10_000_000L, 1L << 40, 1000, 64L << 20);
    }

    public AiidaArchiveLimits withMaxEntries(long value) {
        return new AiidaArchiveLimits(value, maxTotalBytes, maxRatio, ratioFloor);
    }

    public AiidaArchiveLimits withMaxTotalBytes(long value) {
        return new AiidaArchiveLimits(maxEntries, value, maxRatio, ratioFloor);
    }

    public AiidaArchiveLimits withMaxRatio(long value, long floor) {
        return new AiidaArchiveLimits(maxEntries, maxTotalBytes, value, floor);
    }
}
