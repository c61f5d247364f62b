package dev.cairn.storage.archive.aiida;

/**
 * How much an AiiDA archive may hold before {@link AiidaArchiveReader} refuses it as a zip bomb. The
 * sizes a zip declares are not trusted: the reader counts the bytes as it inflates them and stops at the
 * first byte past a limit.
 *
 * @param maxEntries    entries in the zip's central directory
 * @param maxTotalBytes bytes inflated from the whole archive (the database, the metadata and every object
 *                      read)
 * @param maxRatio      how many times larger than its compressed bytes an entry may inflate; deflate alone
 *                      reaches about 1032, which only long runs of one byte (or a bomb) get near
 * @param ratioFloor    entries smaller than this once inflated are not held to {@code maxRatio} (small
 *                      files of zeros legitimately compress a hundredfold and more)
 */
public record AiidaArchiveLimits(long maxEntries, long maxTotalBytes, long maxRatio, long ratioFloor) {

    public AiidaArchiveLimits {
        if (maxEntries < 2 || maxTotalBytes < 1 || maxRatio < 1 || ratioFloor < 0) {
            throw new IllegalArgumentException("limits must be positive (and at least two entries: the metadata and"
                    + " the database): " + maxEntries + ", " + maxTotalBytes + ", " + maxRatio + ", " + ratioFloor);
        }
    }

    /**
     * Ten million entries, 1 TiB in all, and 200:1 past 16 MiB: far beyond the archives AiiDA users share,
     * and a bomb is stopped after at most 200 times the bytes it occupies.
     */
    public static AiidaArchiveLimits defaults() {
        return new AiidaArchiveLimits(10_000_000L, 1L << 40, 200, 16L << 20);
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
