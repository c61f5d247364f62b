package dev.cairn.storage.archive;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What an archive says of itself before its rows: its format and version, what wrote it and when, the
 * parameters it was created with, and how many rows of each part (and objects) it holds.
 *
 * @param format     the format's name: {@code cairn} for Cairn's own, {@code aiida} for AiiDA's
 * @param version    the format's version ({@code 1}; {@code main_0001} for AiiDA's)
 * @param producer   what wrote it, e.g. {@code cairn 0.1.0} or {@code aiida-core 2.9.4}
 * @param created    when it was written
 * @param parameters how it was created (starting set, traversal rules, what was included), as written
 * @param counts     rows per part, objects under {@link ArchivePart#OBJECTS}
 */
public record ArchiveHeader(
        String format,
        String version,
        String producer,
        Instant created,
        Map<String, Object> parameters,
        Map<ArchivePart, Long> counts) {

    public ArchiveHeader {
        EnumMap<ArchivePart, Long> all = new EnumMap<>(ArchivePart.class);
        for (ArchivePart p : ArchivePart.values()) {
            all.put(p, counts.getOrDefault(p, 0L));
        }
        counts = Map.copyOf(all);
        // a copy that keeps nulls: "entities": null means everything
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(parameters));
    }

    /** The rows (or objects) of {@code part}. */
    public long count(ArchivePart part) {
        return counts.get(part);
    }
}
