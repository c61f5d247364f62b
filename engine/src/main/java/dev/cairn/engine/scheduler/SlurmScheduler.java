package dev.cairn.engine.scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import dev.cairn.engine.transport.Transport;

/**
 * SLURM: {@code #SBATCH} directives, {@code sbatch --parsable}, one {@code squeue} for a poll,
 * {@code scancel}. Checked against slurm-wlm 22.05 (the recordings under
 * {@code src/test/resources/scheduler/slurm-22.05}).
 */
public final class SlurmScheduler implements Scheduler {

    /**
     * Fields of a squeue line: id, compact state, time used, reason, user, partition, node count, CPU count, time
     * limit, node list, and the name last, where a '|' in it cannot shift the others. AiiDA's SlurmScheduler asks
     * for the same (but %R, the reason or the nodes, where this asks for both).
     */
    static final String FORMAT = "%i|%t|%M|%r|%u|%P|%D|%C|%l|%N|%j";

    private static final int FIELDS = 11;

    private static final Pattern JOB_ID = Pattern.compile("[0-9]+(_[0-9]+)?");
    /** {@code sbatch --parsable} prints "id" or "id;cluster"; plain sbatch "Submitted batch job id". */
    private static final Pattern SUBMITTED = Pattern.compile("(?:Submitted batch job )?([0-9]+)(?:;\\S+)?");

    /** squeue's compact state codes (man squeue, JOB STATE CODES), mapped as AiiDA does where it maps them. */
    static final Map<String, JobState> STATES = Map.ofEntries(
            Map.entry("PD", JobState.QUEUED), // PENDING
            Map.entry("CF", JobState.QUEUED), // CONFIGURING: nodes booting
            Map.entry("RQ", JobState.QUEUED), // REQUEUED
            Map.entry("RF", JobState.QUEUED), // REQUEUE_FED
            Map.entry("RH", JobState.QUEUED_HELD), // REQUEUE_HOLD
            Map.entry("RD", JobState.QUEUED_HELD), // RESV_DEL_HOLD
            Map.entry("SE", JobState.QUEUED_HELD), // SPECIAL_EXIT: requeued and held
            Map.entry("R", JobState.RUNNING),
            Map.entry("CG", JobState.RUNNING), // COMPLETING: some processes may still run
            Map.entry("SI", JobState.RUNNING), // SIGNALING
            Map.entry("SO", JobState.RUNNING), // STAGE_OUT
            Map.entry("RS", JobState.RUNNING), // RESIZING
            Map.entry("S", JobState.SUSPENDED),
            Map.entry("ST", JobState.SUSPENDED), // STOPPED
            Map.entry("CD", JobState.DONE), // COMPLETED
            Map.entry("CA", JobState.DONE), // CANCELLED
            Map.entry("F", JobState.DONE), // FAILED
            Map.entry("TO", JobState.DONE), // TIMEOUT
            Map.entry("NF", JobState.DONE), // NODE_FAIL
            Map.entry("OOM", JobState.DONE), // OUT_OF_MEMORY
            Map.entry("BF", JobState.DONE), // BOOT_FAIL
            Map.entry("DL", JobState.DONE), // DEADLINE
            Map.entry("PR", JobState.DONE), // PREEMPTED
            Map.entry("RV", JobState.DONE)); // REVOKED (federation: runs on another cluster)

    /** A pending job with one of these reasons waits for something other than resources (AiiDA's list, plus a dependency that can never be met). */
    private static final Set<String> HELD_REASONS =
            Set.of("Dependency", "DependencyNeverSatisfied", "JobHeldUser", "JobHeldAdmin", "BeginTime");

    private final SchedulerCommands commands;

    public SlurmScheduler() {
        this(SchedulerCommands.DEFAULT_TIMEOUT);
    }

    /** @param commandTimeout how long sbatch, squeue and scancel may take */
    public SlurmScheduler(Duration commandTimeout) {
        this.commands = new SchedulerCommands("slurm", commandTimeout, JOB_ID);
    }

    @Override
    public String name() {
        return "slurm";
    }

    @Override
    public String submitScript(JobTemplate t) {
        var d = new ArrayList<String>();
        d.add("#SBATCH --job-name=" + t.jobName());
        // Absolute: sbatch resolves relative output paths against the submission directory.
        d.add("#SBATCH --output=" + t.inWorkdir(t.stdoutName()));
        d.add("#SBATCH --error=" + t.inWorkdir(t.stderrName()));
        // A requeued job would run again in a directory whose outputs the engine may already be reading.
        d.add("#SBATCH --no-requeue");
        if (t.batch().importSysEnvironment()) {
            d.add("#SBATCH --get-user-env");
        }
        if (t.batch().queue() != null) {
            d.add("#SBATCH --partition=" + t.batch().queue());
        }
        if (t.batch().account() != null) {
            d.add("#SBATCH --account=" + t.batch().account());
        }
        if (t.batch().qos() != null) {
            d.add("#SBATCH --qos=" + t.batch().qos());
        }
        JobResources r = t.resources();
        d.add("#SBATCH --nodes=" + r.machines());
        d.add("#SBATCH --ntasks-per-node=" + r.mpiprocsPerMachine());
        d.add("#SBATCH --cpus-per-task=" + r.cpusPerTask());
        if (t.batch().maxWallclockSeconds() != null) {
            d.add("#SBATCH --time=" + WallTimes.slurm(t.batch().maxWallclockSeconds()));
        }
        // In kB with the unit: AiiDA's --mem=kB/1024 turns anything under 1 MB into 0, which SLURM reads as "all of
        // it".
        if (t.batch().maxMemoryKb() != null) {
            d.add("#SBATCH --mem=" + t.batch().maxMemoryKb() + "K");
        }
        return SubmitScript.render(t, d, List.of(), "${SLURM_JOB_ID}");
    }

    @Override
    public String submit(Transport transport, String workdir, String scriptFileName) {
        commands.checkWorkdir(workdir, scriptFileName);
        String command = "sbatch --parsable " + Shell.quote(scriptFileName);
        var r = commands.run(transport, command, workdir);
        if (!r.ok()) {
            throw commands.failed(command, workdir, r);
        }
        return jobIdIn(r.stdout()).orElseThrow(() -> commands.unreadable("a job id", command, r));
    }

    @Override
    public Map<String, JobInfo> poll(Transport transport, Collection<String> jobIds) {
        if (jobIds.isEmpty()) {
            return Map.of();
        }
        commands.checkJobIds(jobIds);
        var ids = new ArrayList<>(new LinkedHashSet<>(jobIds));
        // squeue fails ("Invalid job id specified") when the only job asked for has left the queue, but not
        // when one of several has: asking for the one job twice keeps a failed squeue meaning a real failure
        // (AiiDA #4326), which must never be read as "the job is done".
        if (ids.size() == 1) {
            ids.add(ids.get(0));
        }
        // --states=all: a job that just finished still shows, with why (F, TO, OOM …), for the report.
        String command =
                "squeue --noheader --states=all --jobs=" + String.join(",", ids) + " --format='" + FORMAT + "'";
        Map<String, JobInfo> listed = parse(commands.require(transport, command, null));
        var result = new LinkedHashMap<String, JobInfo>();
        for (String id : jobIds) {
            result.put(id, listed.getOrDefault(id, JobInfo.missing(id)));
        }
        return result;
    }

    @Override
    public Optional<String> findByName(Transport transport, String jobName) {
        String command = "squeue --noheader --user=\"$(id -un)\" --name=" + Shell.quote(commands.checkJobName(jobName))
                + " --format='" + FORMAT + "'";
        return parse(commands.require(transport, command, null)).values().stream()
                .filter(j -> jobName.equals(j.jobName()) && j.state().isActive())
                .map(JobInfo::jobId)
                .min(Comparator.comparing(SlurmScheduler::numeric));
    }

    @Override
    public void cancel(Transport transport, String jobId) {
        commands.require(transport, "scancel " + commands.checkJobId(jobId), null);
    }

    static Optional<String> jobIdIn(String sbatchStdout) {
        for (String line : sbatchStdout.strip().lines().toList().reversed()) {
            var m = SUBMITTED.matcher(line.strip());
            if (m.matches()) {
                return Optional.of(m.group(1));
            }
        }
        return Optional.empty();
    }

    /** Jobs by id from squeue's output in {@link #FORMAT}. */
    static Map<String, JobInfo> parse(String squeueStdout) {
        var jobs = new HashMap<String, JobInfo>();
        for (String line : squeueStdout.lines().toList()) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.strip().split("\\|", FIELDS);
            if (f.length < FIELDS) {
                throw new SchedulerException("slurm: squeue line '" + line + "' does not have the fields " + FORMAT);
            }
            String reason = f[3].equals("None") || f[3].isEmpty() ? null : f[3];
            var allocation = new JobInfo.Allocation(
                    blankToNull(f[4]),
                    blankToNull(f[5]),
                    JobInfo.integerOrNull(f[6]),
                    JobInfo.integerOrNull(f[7]),
                    WallTimes.parseElapsed(f[8]), // null for UNLIMITED and NOT_SET
                    SlurmHostlist.expand(f[9]));
            jobs.put(
                    f[0],
                    new JobInfo(
                            f[0],
                            state(f[1], reason),
                            f[1],
                            f[10],
                            WallTimes.parseElapsed(f[2]),
                            null,
                            reason,
                            allocation));
        }
        return jobs;
    }

    private static String blankToNull(String text) {
        return text.isBlank() ? null : text.strip();
    }

    static JobState state(String code, String reason) {
        JobState s = STATES.getOrDefault(code, JobState.UNDETERMINED);
        boolean held = code.equals("PD") && reason != null && HELD_REASONS.contains(reason);
        return held ? JobState.QUEUED_HELD : s;
    }

    private static long numeric(String jobId) {
        int end = jobId.indexOf('_');
        return Long.parseLong(end < 0 ? jobId : jobId.substring(0, end));
    }
}
