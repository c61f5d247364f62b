package dev.cairn.storage.archive.aiida;

import dev.cairn.storage.archive.InvalidArchiveException;

/** The bytes one archive may still inflate, across all its entries ({@link AiidaArchiveLimits#maxTotalBytes}). */
final class InflationBudget {

    private final long limit;
    private long spent;

    InflationBudget(long limit) {
        this.limit = limit;
    }

    /** Counts {@code bytes} just inflated from {@code where}; refuses the archive once past the limit. */
    void spend(long bytes, String where) {
        spent += bytes;
        if (spent > limit) {
            throw new InvalidArchiveException(where + " takes the archive past " + limit
                    + " bytes inflated, the limit for one archive: a zip bomb, or an archive too large to read");
        }
    }
}
