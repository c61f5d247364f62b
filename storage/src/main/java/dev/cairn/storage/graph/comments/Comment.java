package dev.cairn.storage.graph.comments;

import java.time.OffsetDateTime;
import java.util.UUID;

/** A user's note on a node; the content may be edited, which moves {@code mtime}. */
public record Comment(
        long id, UUID uuid, long nodeId, long userId, OffsetDateTime ctime, OffsetDateTime mtime, String content) {}
