package dev.cairn.engine.scheduler;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;

import dev.cairn.engine.transport.Transport;

/**
 * A batch system on a computer, driven through its command-line tools over a {@link Transport}
 * (AiiDA's {@code Scheduler}): writes submit scripts, submits them, lists jobs and cancels them.
 * Implementations hold no state but their settings, so one instance serves every job of every
 * computer of its kind. A command the batch system refuses is a {@link SchedulerException} that
 * quotes its stderr; a transport failure is a {@code TransportException}, as the transport threw it.
 */
public interface Scheduler {

    /**
     * The file every submit script writes in its work directory as it starts, holding the job's id as
     * {@link #submit} returned it: the trace of a job that ran once the queue has forgotten it.
     */
    String STARTED_FILE = "_cairn_job_started";

    /**
     * The file a caller writes in the work directory just before {@link #submit}: with no
     * {@link #STARTED_FILE} beside it and no job of the name queued, the batch system lost the job.
     */
    String SUBMITTED_FILE = "_cairn_job_submitted";

    /** The submit script the engine writes in every work directory and hands to {@link #submit}. */
    String SUBMIT_SCRIPT = "_cairn_submit.sh";

    /** The name computers are configured with: "direct", "slurm", "pbs". */
    String name();

    /** The full text of the submit script for {@code job}, directives included. */
    String submitScript(JobTemplate job);

    /**
     * Submits {@code scriptFileName}, already written in {@code workdir}, and returns the job id.
     * Not idempotent: a caller that may have submitted before (a worker killed between submission
     * and recording the id) asks {@link #findByName} first, then looks for {@link #STARTED_FILE}.
     */
    String submit(Transport transport, String workdir, String scriptFileName);

    /**
     * The state of each of {@code jobIds}, with ONE command however many there are (one listing per
     * computer and poll interval, not one per job). A job the listing does not show is
     * {@link JobState#DONE} ({@link JobInfo#missing}); a failed listing is an exception, never
     * "everything is done". The map has exactly the given ids as keys.
     */
    Map<String, JobInfo> poll(Transport transport, Collection<String> jobIds);

    /** The id of a job of this user named {@code jobName} that is still queued or running, if any. */
    Optional<String> findByName(Transport transport, String jobName);

    /** Asks the batch system to end the job; it may take a moment to be {@link JobState#DONE}. */
    void cancel(Transport transport, String jobId);
}
