package dev.cairn.storage.graph.groups;

import java.time.OffsetDateTime;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * A named set of nodes. The label is unique among groups of the same type string
 * ({@code core} for users' groups, {@code core.import} for imports, {@code core.auto}, ...).
 *
 * @param extras free-form values a user keeps on the group (unmodifiable)
 */
public record Group(
        long id,
        UUID uuid,
        String label,
        String typeString,
        String description,
        OffsetDateTime time,
        long userId,
        Map<String, Object> extras) {

    public Group {
        // not Map.copyOf: an extra may be JSON null
        extras = Collections.unmodifiableMap(new LinkedHashMap<>(extras));
    }
}
