package dev.cairn.storage.graph.groups;

import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * A named set of nodes. The label is unique among groups of the same type string
 * ({@code core} for users' groups, {@code core.import} for imports, {@code core.auto}, ...).
 */
public record Group(
        long id, UUID uuid, String label, String typeString, String description, OffsetDateTime time, long userId) {}
