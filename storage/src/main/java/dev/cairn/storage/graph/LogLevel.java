package dev.cairn.storage.graph;

import java.util.Arrays;
import java.util.List;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * The level of a process's log record. REPORT sits between INFO and WARNING: it is what a
 * process writes for its user to read ({@code process report}).
 */
public enum LogLevel {
    DEBUG(10),
    INFO(20),
    REPORT(23),
    WARNING(30),
    ERROR(40),
    CRITICAL(50);

    private final int severity;

    LogLevel(int severity) {
        this.severity = severity;
    }

    /** The level's rank: a higher one is more severe. */
    public int severity() {
        return severity;
    }

    /** This level and the more severe ones. */
    public List<LogLevel> andAbove() {
        return Arrays.stream(values()).filter(l -> l.severity >= severity).toList();
    }

    /** The level stored as {@code name}. */
    public static LogLevel of(String name) {
        for (LogLevel level : values()) {
            if (level.name().equals(name)) {
                return level;
            }
        }
        throw new InvalidInputException("unknown log level '" + name + "'; levels are " + Arrays.toString(values()));
    }
}
