package dev.cairn.storage.graph;

import java.time.OffsetDateTime;
import java.util.Map;
import java.util.Objects;

/** A log record to append for a node; {@link LogRecord} is the stored form. */
public record LogEntry(
        long nodeId,
        LogLevel level,
        String loggerName,
        String message,
        Map<String, Object> metadata,
        OffsetDateTime time) {

    public LogEntry {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(loggerName, "loggerName");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(time, "time");
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    }

    /** An entry without metadata, timed now. */
    public static LogEntry of(long nodeId, LogLevel level, String loggerName, String message) {
        return new LogEntry(nodeId, level, loggerName, message, Map.of(), OffsetDateTime.now());
    }
}
