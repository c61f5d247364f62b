package dev.cairn.engine.process;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The states of a process and the moves between them, as the engine makes them. Paused is a
 * flag beside the state, not a state: a paused process keeps its state and does not progress.
 * <p>
 * There is no "running" state. A process runs in steps, each one database transaction that
 * holds the process row's lock from loading the checkpoint to committing the next one; no other
 * transaction can see the process in between, so a stored "running" would cost a write per step
 * that nobody could read, and a worker killed mid-step would leave it standing. A process is
 * therefore created, then waiting between steps (for children, or for its scheduler job), until
 * it ends finished, excepted or killed. A process that ends within its first step (a function,
 * a cached calculation, a work chain that submits nothing) goes from created to its end at once.
 */
public enum ProcessState {
    /** Stored at launch with its inputs; its first step has not run. */
    CREATED,
    /** Between steps: waiting for children, or for its scheduler job. */
    WAITING,
    /** Ended by its own code, with an exit status: 0 for success, else a failure it reported. */
    FINISHED,
    /** Ended by an exception in a step (its code threw, or broke a rule); the stack trace is kept on its node. */
    EXCEPTED,
    /** Ended by a kill, asked for by a user or cascaded from its caller. */
    KILLED;

    /**
     * A move of the transition table.
     *
     * @param from the state left
     * @param to   the state entered
     */
    public record Transition(ProcessState from, ProcessState to) {
        @Override
        public String toString() {
            return from.dbValue() + " -> " + to.dbValue();
        }
    }

    /** Every move of the table, in table order. */
    public static List<Transition> transitions() {
        List<Transition> all = new ArrayList<>();
        for (ProcessState from : values()) {
            for (ProcessState to : from.next()) {
                all.add(new Transition(from, to));
            }
        }
        return all;
    }

    /** Whether the process has ended: finished, excepted or killed. */
    public boolean isTerminal() {
        return this == FINISHED || this == EXCEPTED || this == KILLED;
    }

    /** The states this one may move to: the engine's transition table. */
    public Set<ProcessState> next() {
        return switch (this) {
            case CREATED, WAITING -> EnumSet.of(WAITING, FINISHED, EXCEPTED, KILLED);
            case FINISHED, EXCEPTED, KILLED -> EnumSet.noneOf(ProcessState.class);
        };
    }

    /** Whether the table allows the move from this state to {@code target}. */
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

    /** The state of a stored value ("waiting"); an unknown one names the valid ones. */
    public static ProcessState fromDbValue(String value) {
        for (ProcessState s : values()) {
            if (s.dbValue().equals(value)) {
                return s;
            }
        }
        throw new IllegalStateException("unknown process state '" + value + "'; the states are "
                + Arrays.stream(values()).map(ProcessState::dbValue).toList());
    }
}
