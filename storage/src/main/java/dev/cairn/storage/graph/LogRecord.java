package dev.cairn.storage.graph;

import java.time.OffsetDateTime;
import java.util.Map;
import java.util.UUID;

/** A stored log record of a node. */
public record LogRecord(
        long id,
        UUID uuid,
        OffsetDateTime time,
        String loggerName,
        LogLevel level,
        long nodeId,
        String message,
        Map<String, Object> metadata) {}
