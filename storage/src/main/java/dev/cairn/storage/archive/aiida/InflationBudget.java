package dev.cairn.storage.archive.aiida;

import dev.cairn.storage.archive.InvalidArchiveException;

/**
 * The bytes one archive may still inflate, across all its entries: at most
 * {@link AiidaArchiveLimits#maxTotalBytes}, and at most {@link AiidaArchiveLimits#maxRatio} times the
 * archive's own size (past {@link AiidaArchiveLimits#ratioFloor}), which no archive of real data comes
 * near and a bomb of many entries, each within the ratio, exceeds.
 */
final class InflationBudget {

    private final long limit;
    private final String why;
    private long spent;

    private InflationBudget(long limit, String why) {
        this.limit = limit;
        this.why = why;
    }

    /** The budget of an archive of {@code archiveSize} bytes. */
    static InflationBudget of(AiidaArchiveLimits limits, long archiveSize) {
        long byRatio;
        try {
            byRatio = Math.addExact(Math.multiplyExact(limits.maxRatio(), archiveSize), limits.ratioFloor());
        } catch (ArithmeticException e) {
            byRatio = Long.MAX_VALUE;
        }
        if (byRatio >= limits.maxTotalBytes()) {
            return new InflationBudget(limits.maxTotalBytes(), "the limit for one archive");
        }
        return new InflationBudget(byRatio, limits.maxRatio() + " times the archive's size");
    }

    /** Counts {@code bytes} just inflated from {@code where}; refuses the archive once past the limit. */
    void spend(long bytes, String where) {
        spent += bytes;
        if (spent > limit) {
            throw new InvalidArchiveException(where + " takes the archive past " + limit + " bytes inflated, " + why
                    + ": a zip bomb, or an archive too large to read");
        }
    }
}
