package dev.cairn.storage.objects;

/**
 * What a {@link Container#sweep} did, or would do in a dry run.
 *
 * @param marked   unreferenced objects marked pending deletion by this run
 * @param deleted  objects deleted: marked longer ago than the grace, still unreferenced, not stored again
 * @param unmarked marked objects that are referenced again, so no longer pending deletion
 * @param waiting  marked objects left for a later run: marked less than the grace ago, or stored again
 *                 within it
 * @param recent   unreferenced objects stored within the grace, not marked: a reference to them may be
 *                 about to commit
 */
public record SweepReport(int marked, int deleted, int unmarked, int waiting, int recent) {}
