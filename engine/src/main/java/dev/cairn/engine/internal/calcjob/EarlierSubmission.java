package dev.cairn.engine.internal.calcjob;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

import dev.cairn.engine.scheduler.Scheduler;
import dev.cairn.engine.scheduler.SchedulerException;
import dev.cairn.engine.transport.Transport;

/**
 * What an earlier attempt of a job's submit step left in the work directory, read when the step runs
 * again because that attempt's transaction was lost (its worker killed, the database failed over)
 * after it may have submitted. Three traces tell it all, for every scheduler and transport: the job
 * queued or running under its name, {@link Scheduler#STARTED_FILE} (written by the job's script as it
 * starts, with its id), {@link Scheduler#SUBMITTED_FILE} (written just before submission).
 *
 * @param jobId the earlier attempt's job, to take instead of submitting again; empty to submit
 * @param report what was found, for the process's report; empty when no attempt had submitted
 */
record EarlierSubmission(Optional<String> jobId, Optional<String> report) {

    /** No attempt submitted the job: submit it. */
    static final EarlierSubmission NONE = new EarlierSubmission(Optional.empty(), Optional.empty());

    static EarlierSubmission look(Transport transport, Scheduler scheduler, String workdir, String jobName) {
        // The queue before the files: a job that is neither queued nor started when the queue answers can
        // no longer start, while a job seen not started could start and end before the queue is asked.
        Optional<String> queued = scheduler.findByName(transport, jobName);
        if (queued.isPresent()) {
            return taken(queued.get(), "still queued or running");
        }
        String started = workdir + "/" + Scheduler.STARTED_FILE;
        if (transport.exists(started)) {
            String id = new String(transport.read(started), StandardCharsets.UTF_8).strip();
            if (id.isEmpty()) {
                throw new SchedulerException(started + " is empty: the job ran, but its id is unknown");
            }
            return taken(id, "ended");
        }
        if (transport.exists(workdir + "/" + Scheduler.SUBMITTED_FILE)) {
            return new EarlierSubmission(
                    Optional.empty(),
                    Optional.of("An earlier attempt of this step submitted job " + jobName + " and lost its"
                            + " transaction; the scheduler no longer knows the job and it never started (no "
                            + Scheduler.STARTED_FILE + "): the scheduler lost it, so it is submitted again"));
        }
        return NONE;
    }

    private static EarlierSubmission taken(String jobId, String how) {
        return new EarlierSubmission(
                Optional.of(jobId),
                Optional.of("An earlier attempt of this step submitted job " + jobId + " and lost its transaction;"
                        + " the job, " + how + ", is taken rather than submitted again"));
    }
}
