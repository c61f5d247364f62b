package dev.cairn.engine.scheduler;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
 * @param allocation what it asked for and holds, from a listing that says (SLURM's, PBS's); else null
 */
public record JobInfo(
        String jobId,
        JobState state,
        String rawState,
        String jobName,
        Long wallTimeSeconds,
        Integer exitCode,
        String annotation,
        Allocation allocation) {

    /**
     * What a job asked for and holds; each part null when the listing does not say.
     *
     * @param owner the user the job runs as
     * @param queue the partition or queue it was submitted to
     * @param machines how many machines (nodes) it asked for or holds
     * @param cpus how many cores it asked for or holds, on all its machines
     * @param requestedWallTimeSeconds the wall time it asked for
     * @param machineNames the names of the machines it runs on, once it has them
     */
    public record Allocation(
            String owner,
            String queue,
            Integer machines,
            Integer cpus,
            Long requestedWallTimeSeconds,
            List<String> machineNames) {

        public Allocation {
            machineNames = machineNames == null ? null : List.copyOf(machineNames);
        }
    }

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
        return new JobInfo(jobId, JobState.DONE, "", null, null, null, "not in the scheduler's listing", null);
    }

    /**
     * The job as a calculation job's {@code last_job_info} attribute holds it, in AiiDA's
     * {@code JobInfo.get_dict()} form: its field names, only the fields the listing gave, the state
     * as {@code scheduler_state} writes it, the raw state as {@code job_substate}, each allocated
     * machine as {@code {"name": …}}.
     */
    public Map<String, Object> asAttribute() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("job_id", jobId);
        d.put("job_state", state.attributeValue());
        putIfSet(d, "job_substate", rawState.isEmpty() ? null : rawState);
        putIfSet(d, "title", jobName);
        putIfSet(d, "annotation", annotation);
        putIfSet(d, "exit_status", exitCode == null ? null : exitCode.longValue());
        Allocation a = allocation == null ? new Allocation(null, null, null, null, null, null) : allocation;
        putIfSet(d, "job_owner", a.owner());
        putIfSet(d, "queue_name", a.queue());
        putIfSet(d, "num_machines", a.machines() == null ? null : a.machines().longValue());
        putIfSet(d, "num_cpus", a.cpus() == null ? null : a.cpus().longValue());
        putIfSet(d, "wallclock_time_seconds", wallTimeSeconds);
        putIfSet(d, "requested_wallclock_time_seconds", a.requestedWallTimeSeconds());
        if (a.machineNames() != null && !a.machineNames().isEmpty()) {
            d.put(
                    "allocated_machines",
                    a.machineNames().stream().map(n -> Map.of("name", n)).toList());
        }
        return d;
    }

    private static void putIfSet(Map<String, Object> d, String key, Object value) {
        if (value != null) {
            d.put(key, value);
        }
    }

    /** A count or code in a scheduler's output; null for none or for anything not an integer. */
    static Integer integerOrNull(String text) {
        try {
            return text == null ? null : Integer.valueOf(text.strip());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
