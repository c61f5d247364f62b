package dev.cairn.engine.internal.state;

import dev.cairn.storage.graph.LogEntry;
import dev.cairn.storage.graph.LogLevel;

/** The log records the engine writes about a process (its report), under one logger name. */
public final class EngineLog {

    /** The logger name of every record the engine writes. */
    public static final String NAME = "cairn.engine";

    private EngineLog() {}

    public static LogEntry of(long processId, LogLevel level, String message) {
        return LogEntry.of(processId, level, NAME, message);
    }
}
