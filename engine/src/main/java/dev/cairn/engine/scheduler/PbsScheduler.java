package dev.cairn.engine.scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.cairn.engine.transport.CommandResult;
import dev.cairn.engine.transport.Transport;
import dev.cairn.storage.errors.InvalidInputException;

/**
 * PBS Professional (OpenPBS) and Torque: {@code #PBS} directives, {@code qsub}, one
 * {@code qstat -f} for a poll, {@code qdel}. The two differ in how a job asks for machines
 * ({@code -l select=N:ncpus=..:mpiprocs=..} against {@code -l nodes=N:ppn=..}) and in Torque's
 * extra state C (completed); everything else is shared.
 */
public final class PbsScheduler implements Scheduler {

    /** Which PBS the computer runs. */
    public enum Dialect {
        PBS_PRO,
        TORQUE
    }

    /** "1234.server", "1234[].server" (an array), or a bare number on a server that omits its name. */
    private static final Pattern JOB_ID = Pattern.compile("[0-9]+(\\[[0-9]*])?(\\.[A-Za-z0-9_.-]+)?");

    /** qstat's exit code when a job asked for is unknown. */
    private static final int UNKNOWN_JOB_ID = 153;

    /** qstat's job_state letters (PBS Pro and Torque man pages), mapped as AiiDA does. */
    static final Map<String, JobState> STATES = Map.ofEntries(
            Map.entry("Q", JobState.QUEUED),
            Map.entry("W", JobState.QUEUED), // waiting for its start time (qsub -a)
            Map.entry("T", JobState.QUEUED), // being moved
            Map.entry("H", JobState.QUEUED_HELD),
            Map.entry("R", JobState.RUNNING),
            Map.entry("B", JobState.RUNNING), // array with a subjob running
            Map.entry("E", JobState.RUNNING), // exiting: still cleaning up on its nodes
            Map.entry("S", JobState.SUSPENDED),
            Map.entry("U", JobState.SUSPENDED), // cycle-harvesting, suspended by keyboard activity
            Map.entry("F", JobState.DONE), // PBS Pro: finished (listed with job history)
            Map.entry("X", JobState.DONE), // PBS Pro: subjob finished
            Map.entry("C", JobState.DONE), // Torque: completed
            Map.entry("M", JobState.UNDETERMINED)); // moved to another server: this one cannot tell

    private final Dialect dialect;
    private final SchedulerCommands commands;

    /** PBS Professional, with the default command timeout. */
    public PbsScheduler() {
        this(Dialect.PBS_PRO, SchedulerCommands.DEFAULT_TIMEOUT);
    }

    /** Torque (PBS/Torque, Moab), with the default command timeout. */
    public static PbsScheduler torque() {
        return new PbsScheduler(Dialect.TORQUE, SchedulerCommands.DEFAULT_TIMEOUT);
    }

    /** @param commandTimeout how long qsub, qstat and qdel may take */
    public PbsScheduler(Dialect dialect, Duration commandTimeout) {
        this.dialect = dialect;
        this.commands = new SchedulerCommands(name(), commandTimeout, JOB_ID);
    }

    @Override
    public String name() {
        return dialect == Dialect.PBS_PRO ? "pbs" : "torque";
    }

    @Override
    public String submitScript(JobTemplate t) {
        var d = new ArrayList<String>();
        d.add("#PBS -N " + t.jobName());
        d.add("#PBS -o " + t.inWorkdir(t.stdoutName()));
        d.add("#PBS -e " + t.inWorkdir(t.stderrName()));
        // Not rerunnable: a rerun would start again in a directory whose outputs the engine may be reading.
        d.add("#PBS -r n");
        if (t.batch().importSysEnvironment()) {
            d.add("#PBS -V");
        }
        if (t.batch().queue() != null) {
            d.add("#PBS -q " + t.batch().queue());
        }
        if (t.batch().account() != null) {
            d.add("#PBS -A " + t.batch().account());
        }
        JobResources r = t.resources();
        if (dialect == Dialect.PBS_PRO) {
            if (t.batch().qos() != null) {
                throw new InvalidInputException("pbs: job " + t.jobName() + " asks for QOS '"
                        + t.batch().qos()
                        + "', which PBS Professional does not have; choose a queue, or use custom scheduler commands");
            }
            String select =
                    "select=" + r.machines() + ":ncpus=" + r.cpusPerMachine() + ":mpiprocs=" + r.mpiprocsPerMachine();
            if (r.cpusPerTask() > 1) {
                select += ":ompthreads=" + r.cpusPerTask();
            }
            if (t.batch().maxMemoryKb() != null) {
                select += ":mem=" + t.batch().maxMemoryKb() + "kb";
            }
            d.add("#PBS -l " + select);
        } else {
            if (t.batch().qos() != null) {
                d.add("#PBS -l qos=" + t.batch().qos());
            }
            d.add("#PBS -l nodes=" + r.machines() + ":ppn=" + r.cpusPerMachine());
            // Torque's mem is for the whole job, the template's for each machine.
            if (t.batch().maxMemoryKb() != null) {
                d.add("#PBS -l mem=" + Math.multiplyExact(t.batch().maxMemoryKb(), (long) r.machines()) + "kb");
            }
        }
        if (t.batch().maxWallclockSeconds() != null) {
            d.add("#PBS -l walltime=" + WallTimes.pbs(t.batch().maxWallclockSeconds()));
        }
        return SubmitScript.render(t, d, List.of(), "${PBS_JOBID}");
    }

    @Override
    public String submit(Transport transport, String workdir, String scriptFileName) {
        commands.checkWorkdir(workdir, scriptFileName);
        String command = "qsub " + Shell.quote(scriptFileName);
        CommandResult r = commands.run(transport, command, workdir);
        if (!r.ok()) {
            throw commands.failed(command, workdir, r);
        }
        List<String> lines = r.stdout().strip().lines().toList();
        String id = lines.isEmpty() ? "" : lines.getLast().strip();
        if (!JOB_ID.matcher(id).matches()) {
            throw commands.unreadable("a job id", command, r);
        }
        return id;
    }

    @Override
    public Map<String, JobInfo> poll(Transport transport, Collection<String> jobIds) {
        if (jobIds.isEmpty()) {
            return Map.of();
        }
        commands.checkJobIds(jobIds);
        String command = "qstat -f " + String.join(" ", new LinkedHashSet<>(jobIds));
        List<QstatListing.Job> listed = QstatListing.parse(listing(transport, command));
        var result = new LinkedHashMap<String, JobInfo>();
        for (String id : jobIds) {
            result.put(id, find(listed, id).map(j -> info(id, j)).orElseGet(() -> JobInfo.missing(id)));
        }
        return result;
    }

    @Override
    public Optional<String> findByName(Transport transport, String jobName) {
        // The user first, then the jobs: qselect finds this user's jobs by name cheaply and qstat -f says
        // what state they are in (no ids: print nothing). Where there is no qselect (Slurm's Torque front
        // end has none), qstat -f lists every job the server shows this user, filtered here by owner and name.
        String command =
                "id -un || exit 1; if command -v qselect >/dev/null 2>&1; then ids=$(qselect -u \"$(id -un)\" -N "
                        + Shell.quote(commands.checkJobName(jobName))
                        + ") || exit 1; [ -z \"$ids\" ] || qstat -f $ids; else qstat -f; fi";
        String[] userAndJobs = listing(transport, command).split("\n", 2);
        String user = userAndJobs[0].strip();
        if (user.isEmpty()) {
            throw new SchedulerException(name() + ": '" + command + "' printed no user name before its jobs");
        }
        return QstatListing.parse(userAndJobs.length > 1 ? userAndJobs[1] : "").stream()
                .filter(j -> jobName.equals(j.get("Job_Name")) && ownedBy(j, user))
                .map(j -> info(j.id(), j))
                .filter(j -> j.state().isActive())
                .map(JobInfo::jobId)
                .findFirst();
    }

    /** Job_Owner is "user@submit-host". */
    private static boolean ownedBy(QstatListing.Job job, String user) {
        String owner = job.get("Job_Owner");
        return owner != null && owner.split("@", 2)[0].equals(user);
    }

    @Override
    public void cancel(Transport transport, String jobId) {
        commands.require(transport, "qdel " + commands.checkJobId(jobId), null);
    }

    /**
     * qstat's stdout. qstat fails when any job asked for is unknown ("Unknown Job Id") or, on PBS Pro
     * with job history, finished ("Job has finished"), and still lists the others; only other complaints
     * make the listing a failure. Exit code 153 is PBS's "unknown job id" (PBSE_UNKJOBID, 15001, as a
     * byte), which Slurm's Torque front end returns without a word when it knows none of the jobs.
     */
    private String listing(Transport transport, String command) {
        CommandResult r = commands.run(transport, command, null);
        String otherErrors = r.stderr()
                .lines()
                .filter(l -> !l.contains("Unknown Job Id") && !l.contains("Job has finished") && !l.isBlank())
                .reduce("", (a, b) -> a + b + "\n");
        boolean unknownJobsOnly = otherErrors.isEmpty() && (!r.stderr().isBlank() || r.exitCode() == UNKNOWN_JOB_ID);
        if (!r.ok() && !unknownJobsOnly) {
            throw commands.failed(command, null, r);
        }
        return r.stdout();
    }

    /**
     * The listed job for {@code id}: qstat may print the server's full name where qsub printed a short one
     * ("12.pbs01" against "12.pbs01.cluster.org"), so a sequence number with one name a prefix of the other
     * counts too. A running job taken for missing would be taken for DONE.
     */
    static Optional<QstatListing.Job> find(List<QstatListing.Job> listed, String id) {
        for (QstatListing.Job j : listed) {
            if (j.id().equals(id)) {
                return Optional.of(j);
            }
        }
        for (QstatListing.Job j : listed) {
            if (j.id().startsWith(id + ".") || id.startsWith(j.id() + ".")) {
                return Optional.of(j);
            }
        }
        return Optional.empty();
    }

    static JobInfo info(String id, QstatListing.Job j) {
        String raw = j.get("job_state");
        JobState state = raw == null ? JobState.UNDETERMINED : STATES.getOrDefault(raw, JobState.UNDETERMINED);
        String walltime = j.get("resources_used.walltime");
        // PBS Pro writes Exit_status, Torque exit_status; the attribute names are read without case.
        String exit = j.get("exit_status");
        String requested = j.get("Resource_List.walltime");
        return new JobInfo(
                id,
                state,
                raw == null ? "" : raw,
                j.get("Job_Name"),
                walltime == null ? null : WallTimes.parseElapsed(walltime),
                JobInfo.integerOrNull(exit),
                j.get("comment"),
                new JobInfo.Allocation(
                        j.get("Job_Owner"),
                        j.get("queue"),
                        JobInfo.integerOrNull(j.get("Resource_List.nodect")),
                        JobInfo.integerOrNull(j.get("Resource_List.ncpus")),
                        requested == null ? null : WallTimes.parseElapsed(requested),
                        machines(j.get("exec_host"))));
    }

    /** The machines of {@code exec_host}, "node017/0*4+node018/0*4" (PBS Pro) or "node01/0-3+node02/0" (Torque). */
    static List<String> machines(String execHost) {
        if (execHost == null || execHost.isBlank()) {
            return null;
        }
        return Arrays.stream(execHost.split("\\+"))
                .map(slot -> slot.strip().split("/", 2)[0])
                .distinct()
                .toList();
    }
}
