package dev.cairn.engine.events;

/**
 * A signal to the worker running a process's step. The action itself is in the database
 * already; the signal only makes a running step stop early instead of finishing first.
 */
public record ControlSignal(Action action, long processId) {

    public enum Action {
        /** Interrupt the step: the process was killed while it ran. */
        KILL
    }

    public static ControlSignal kill(long processId) {
        return new ControlSignal(Action.KILL, processId);
    }
}
