package dev.cairn.storage.graph;

import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;

/**
 * One stored row of {@code node}, as read back: the untyped form that queries return and
 * that the typed node classes are built from. The maps are unmodifiable.
 */
public record NodeRecord(
        long id,
        UUID uuid,
        String nodeType,
        String processType,
        String label,
        String description,
        OffsetDateTime ctime,
        OffsetDateTime mtime,
        long userId,
        Long computerId,
        Map<String, Object> attributes,
        Map<String, Object> extras,
        Map<String, Object> repositoryMetadata,
        String hash) {}
