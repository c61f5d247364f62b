package dev.cairn.storage.archive;

/** Told how an export or import goes, part by part: for progress bars. */
@FunctionalInterface
public interface ArchiveProgress {

    ArchiveProgress NONE = (part, done, total) -> {};

    /** {@code done} of {@code total} rows (or objects) of {@code part}; called at a part's start and end too. */
    void update(ArchivePart part, long done, long total);

    /**
     * An import finished a step of its work ("links inserted", "hashes of new processes"), in
     * {@code millis}: what a client shows while the rows are all read and the import goes on.
     */
    default void step(String step, long millis) {}
}
