package dev.cairn.engine.metrics;

import java.time.Duration;
import java.util.Objects;

/**
 * A task a worker is done with: the step it named, what became of it, and how long the worker held it,
 * from taking it up in a slot to the acknowledgement (or to handing it back).
 *
 * @param processId the process the task named
 * @param step      the step the task named
 * @param outcome   what became of the task
 * @param took      from taking it up to the acknowledgement or the hand-back
 */
public record StepTiming(long processId, int step, Outcome outcome, Duration took) {

    /** What became of a task. */
    public enum Outcome {
        /** The step ran and committed, then the task was acknowledged. */
        COMMITTED,
        /** The task named a step already run, or a paused, ended or deleted process: acknowledged, nothing ran. */
        SKIPPED,
        /** Nothing committed (the worker was stopping, or the step failed in a way it does not handle): the task went back to the broker. */
        RETURNED
    }

    public StepTiming {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(took, "took");
    }
}
