package dev.cairn.engine.runtime;

import java.util.List;

/**
 * What a committed step leaves to do: publish {@code tasks} (their outbox rows are
 * {@code outboxIds}, to delete once published) and broadcast {@code changes}. A skipped
 * task (already run, paused, gone) has nothing to do and says why.
 */
public record StepOutcome(List<Task> tasks, List<Long> outboxIds, List<StateChange> changes, String skipped) {

    public StepOutcome {
        tasks = List.copyOf(tasks);
        outboxIds = List.copyOf(outboxIds);
        changes = List.copyOf(changes);
    }

    static StepOutcome skip(String why) {
        return new StepOutcome(List.of(), List.of(), List.of(), why);
    }

    public boolean wasSkipped() {
        return skipped != null;
    }
}
