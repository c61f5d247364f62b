package dev.cairn.storage.objects;

/**
 * What {@link Container#cleanStorage} did.
 *
 * @param looseDeleted      loose copies of packed objects removed
 * @param sandboxLeftovers  temporary files of crashed writers removed
 * @param vacuumed          whether the index was compacted
 */
public record CleaningReport(int looseDeleted, int sandboxLeftovers, boolean vacuumed) {}
