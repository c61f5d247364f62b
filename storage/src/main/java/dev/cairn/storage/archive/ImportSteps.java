package dev.cairn.storage.archive;

import java.lang.System.Logger.Level;

/**
 * How long each step of an import took, logged at DEBUG on {@code dev.cairn.storage.archive.ArchiveImport}:
 * what an operator (or a benchmark) reads to see where a slow import spends its time.
 */
final class ImportSteps {

    private static final System.Logger LOG = System.getLogger(ArchiveImport.class.getName());

    private final boolean on = LOG.isLoggable(Level.DEBUG);
    private long since = System.nanoTime();

    /** Ends the step running since the last call, naming it. */
    void done(String step) {
        if (!on) {
            return;
        }
        long now = System.nanoTime();
        long ms = (now - since) / 1_000_000;
        LOG.log(Level.DEBUG, () -> "import step " + step + ": " + ms + " ms");
        since = now;
    }
}
