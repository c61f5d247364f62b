package dev.cairn.engine.scheduler;

import java.util.Locale;

/**
 * Where a job is in its batch system, reduced to what the engine acts on (AiiDA's
 * {@code JobState}). Every scheduler maps its own codes onto these; a code it does not know
 * becomes {@link #UNDETERMINED} rather than a guess, so that an unknown state is never taken
 * for {@link #DONE} and the job's files are not retrieved while it still runs.
 */
public enum JobState {
    /** The listing shows the job with a state this scheduler does not know. */
    UNDETERMINED,
    /** Waiting for resources. */
    QUEUED,
    /** Waiting, and will not start until someone or something releases it (hold, dependency, begin time). */
    QUEUED_HELD,
    /** Has an allocation and runs (or is finishing up: SLURM's COMPLETING, PBS's E). */
    RUNNING,
    /** Has an allocation but is stopped. */
    SUSPENDED,
    /** Over, in whatever way: completed, failed, cancelled, timed out, or no longer listed. */
    DONE;

    /**
     * The state as a calculation job's {@code scheduler_state} attribute holds it, AiiDA's value:
     * {@code queued}, {@code queued held}, {@code running}, {@code done}, …
     */
    public String attributeValue() {
        return name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** Whether the job may still start or run, and so must not be submitted again. */
    public boolean isActive() {
        return this != DONE;
    }
}
