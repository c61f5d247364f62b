package dev.cairn.engine.internal.runtime;

import java.util.List;

import dev.cairn.engine.events.StateChanged;
import dev.cairn.engine.internal.state.Task;

/**
 * What a committed step leaves to do: publish {@code tasks} (their outbox rows are
 * {@code outboxIds}, to delete once published) and broadcast {@code changes}. A skipped
 * task (already run, paused, gone) has nothing to do and says why.
 */
public record StepOutcome(List<Task> tasks, List<Long> outboxIds, List<StateChanged> changes, String skipped) {

    public StepOutcome {
        tasks = List.copyOf(tasks);
        outboxIds = List.copyOf(outboxIds);
        changes = List.copyOf(changes);
    }

    /** A committed step that leaves nothing to send (a job step to be tried again later). */
    static final StepOutcome NOTHING = new StepOutcome(List.of(), List.of(), List.of(), null);

    static StepOutcome skip(String why) {
        return new StepOutcome(List.of(), List.of(), List.of(), why);
    }

    public boolean wasSkipped() {
        return skipped != null;
    }
}
