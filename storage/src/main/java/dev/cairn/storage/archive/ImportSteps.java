package dev.cairn.storage.archive;

import java.lang.System.Logger.Level;

/**
 * How long each step of an import took, told to its {@link ArchiveProgress} (a client's progress) and
 * logged at DEBUG on {@code dev.cairn.storage.archive.ArchiveImport}: what an operator (or a benchmark)
 * reads to see where a slow import spends its time.
 */
final class ImportSteps {

    private static final System.Logger LOG = System.getLogger(ArchiveImport.class.getName());

    private final boolean logged = LOG.isLoggable(Level.DEBUG);
    private final ArchiveProgress progress;
    private long since = System.nanoTime();

    ImportSteps(ArchiveProgress progress) {
        this.progress = progress;
    }

    /** Steps timed apart from these, from now: the work of another thread, told to the same progress. */
    ImportSteps branch() {
        return new ImportSteps(progress);
    }

    /** Ends the step running since the last call, naming it. */
    void done(String step) {
        long now = System.nanoTime();
        long ms = (now - since) / 1_000_000;
        since = now;
        progress.step(step, ms);
        if (logged) {
            LOG.log(Level.DEBUG, () -> "import step " + step + ": " + ms + " ms");
        }
    }
}
