package dev.cairn.engine.scheduler;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * One job as the batch system's listing showed it. Only {@code jobId}, {@code state} and
 * {@code rawState} are always set; the others are null when the listing does not say.
 *
 * @param rawState the scheduler's own code ("PD", "R", "Q", "Ss"), kept for reports; empty for a
 *     job that was {@link #missing missing} from the listing
 * @param jobName the name the job was submitted with
 * @param wallTimeSeconds how long the job has run so far (or ran)
 * @param exitCode the job's exit code, when the listing still shows a finished job with one
 * @param annotation why the job is in its state ("Dependency", "JobHeldUser", a PBS comment)
 */
public record JobInfo(
        String jobId,
        JobState state,
        String rawState,
        String jobName,
        Long wallTimeSeconds,
        Integer exitCode,
        String annotation) {

    public JobInfo {
        if (jobId == null || jobId.isBlank()) {
            throw new InvalidInputException("a job in a listing needs a job id");
        }
        if (state == null) {
            throw new InvalidInputException("job " + jobId + " needs a state");
        }
        if (rawState == null) {
            throw new InvalidInputException("job " + jobId + " needs its raw state (empty if unknown)");
        }
    }

    /**
     * A job the listing no longer shows. Batch systems forget finished jobs after a while (SLURM's
     * MinJobAge, PBS without job history), so absence means DONE, as in AiiDA: the scheduler's command
     * itself succeeded, which each implementation checks before it calls this.
     */
    public static JobInfo missing(String jobId) {
        return new JobInfo(jobId, JobState.DONE, "", null, null, null, "not in the scheduler's listing");
    }
}
