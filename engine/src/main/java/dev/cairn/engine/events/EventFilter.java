package dev.cairn.engine.events;

import dev.cairn.engine.process.ProcessState;

/**
 * Which state changes a subscriber wants: of one process or of all, into one state or any.
 *
 * @param processId the process, or null for every process
 * @param to        the state moved into, or null for any
 */
public record EventFilter(Long processId, ProcessState to) {

    /** Every state change of every process. */
    public static EventFilter all() {
        return new EventFilter(null, null);
    }

    /** The state changes of one process. */
    public static EventFilter process(long processId) {
        return new EventFilter(processId, null);
    }

    /** Every move of any process into {@code state}. */
    public static EventFilter into(ProcessState state) {
        return new EventFilter(null, state);
    }
}
