package dev.cairn.engine.internal.state;

/**
 * Where a process stands between steps, as its process row keeps it: a work chain's place in
 * its outline, a calculation job's stage, or nothing for a process that has not begun or has
 * ended.
 */
public sealed interface Checkpoint permits Checkpoint.None, WorkChainCheckpoint, JobCheckpoint {

    /** A process with nothing to resume from: not yet stepped, or terminated. */
    Checkpoint NONE = new None();

    /** The form stored in the process row's {@code checkpoint} column. */
    String toJson();

    record None() implements Checkpoint {
        @Override
        public String toJson() {
            return "{}";
        }
    }
}
