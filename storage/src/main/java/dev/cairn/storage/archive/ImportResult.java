package dev.cairn.storage.archive;

import java.util.Map;

/**
 * What an import did.
 *
 * @param header   the archive's header
 * @param added    rows (objects) added per part: what the installation did not have
 * @param existing nodes of the archive the installation had already (their extras merged)
 * @param group    the label of the group the archive's nodes went into, or {@code null} when nothing was new
 */
public record ImportResult(ArchiveHeader header, Map<ArchivePart, Long> added, long existing, String group) {

    public ImportResult {
        added = Map.copyOf(added);
    }

    /** How many rows of {@code part} the import added (0 when none). */
    public long added(ArchivePart part) {
        return added.getOrDefault(part, 0L);
    }
}
