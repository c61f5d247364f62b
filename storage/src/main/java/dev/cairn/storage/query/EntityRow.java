package dev.cairn.storage.query;

import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;

import dev.cairn.storage.graph.LinkType;

/**
 * Whole rows of the entities other than nodes, as {@code *} projects them (nodes come back as
 * {@link dev.cairn.storage.graph.NodeRecord}). Maps are unmodifiable.
 */
public sealed interface EntityRow {

    /** The row's database id. */
    long id();

    record Group(
            long id,
            UUID uuid,
            String label,
            String typeString,
            String description,
            OffsetDateTime time,
            long userId,
            Map<String, Object> extras)
            implements EntityRow {}

    record Computer(
            long id,
            UUID uuid,
            String label,
            String hostname,
            String description,
            String transportType,
            String schedulerType,
            Map<String, Object> metadata)
            implements EntityRow {}

    record User(long id, String email, String firstName, String lastName, String institution) implements EntityRow {}

    record Comment(
            long id, UUID uuid, long nodeId, long userId, OffsetDateTime ctime, OffsetDateTime mtime, String content)
            implements EntityRow {}

    record Log(
            long id,
            UUID uuid,
            OffsetDateTime time,
            String loggerName,
            String levelName,
            long nodeId,
            String message,
            Map<String, Object> metadata)
            implements EntityRow {}

    /** A link between two nodes, as an edge's {@code *} projects it. */
    record Link(long id, long inputId, long outputId, LinkType type, String label) implements EntityRow {}
}
