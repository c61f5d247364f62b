package dev.cairn.engine.process;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * The states of a process and the moves between them. Paused is a flag beside the state,
 * not a state: a paused process keeps its state and does not progress.
 */
public enum ProcessState {
    CREATED,
    RUNNING,
    WAITING,
    FINISHED,
    EXCEPTED,
    KILLED;

    public boolean isTerminal() {
        return this == FINISHED || this == EXCEPTED || this == KILLED;
    }

    /** The states this one may move to. */
    public Set<ProcessState> next() {
        return switch (this) {
            case CREATED -> EnumSet.of(RUNNING, EXCEPTED, KILLED);
            case RUNNING -> EnumSet.of(WAITING, FINISHED, EXCEPTED, KILLED);
            case WAITING -> EnumSet.of(RUNNING, EXCEPTED, KILLED);
            case FINISHED, EXCEPTED, KILLED -> EnumSet.noneOf(ProcessState.class);
        };
    }

    public boolean canMoveTo(ProcessState target) {
        return next().contains(target);
    }

    /** Checks a move, naming both ends when it is not allowed. */
    public ProcessState moveTo(ProcessState target) {
        if (!canMoveTo(target)) {
            throw new IllegalStateException("a process cannot go from " + this + " to " + target
                    + (isTerminal() ? " (" + this + " is final)" : "; from " + this + " it may go to " + next()));
        }
        return target;
    }

    /** The value stored in the node's process_state attribute and the process row. */
    public String dbValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ProcessState fromDbValue(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }
}
