package dev.cairn.engine.scheduler;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import dev.cairn.engine.transport.CommandResult;
import dev.cairn.engine.transport.Transport;

/**
 * No batch system: the script runs at once in the background on the computer, and its process id
 * is the job id (AiiDA's {@code core.direct}). The job gets a session of its own ({@code setsid}) so
 * that the transport's shell ending does not end it and {@link #cancel} can kill the whole process
 * group; the job name is passed to bash as the script's argument, so that {@code ps} shows it and
 * {@link #findByName} finds it. Queue, account, QOS, wall-clock and memory limits are not enforced.
 */
public final class DirectScheduler implements Scheduler {

    /** The line of the script that carries the job name for {@link #submit} to pass on. */
    static final String NAME_MARKER = "#CAIRN --job-name=";

    private static final Pattern PID = Pattern.compile("[0-9]+");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    /** The first line of a poll's output where the jobs are read from /proc. */
    private static final String UPTIME = "uptime";

    private final SchedulerCommands commands;

    public DirectScheduler() {
        this(SchedulerCommands.DEFAULT_TIMEOUT);
    }

    /** @param commandTimeout how long ps, kill and starting a job may take */
    public DirectScheduler(Duration commandTimeout) {
        this.commands = new SchedulerCommands("direct", commandTimeout, PID);
    }

    @Override
    public String name() {
        return "direct";
    }

    @Override
    public String submitScript(JobTemplate t) {
        var preamble = new ArrayList<String>();
        if (!t.batch().importSysEnvironment()) {
            // Run again with an empty environment; "$@" keeps the job name in the arguments ps shows.
            preamble.add("[ -n \"${CAIRN_CLEAN_ENV:-}\" ] || exec env -i CAIRN_CLEAN_ENV=1 HOME=\"$HOME\""
                    + " USER=\"${USER:-}\" PATH=/usr/local/bin:/usr/bin:/bin /bin/bash \"$0\" \"$@\"");
        }
        preamble.add("exec > " + Shell.quote(t.stdoutName()) + " 2> " + Shell.quote(t.stderrName()));
        if (t.resources().cpusPerTask() > 1) {
            preamble.add("export OMP_NUM_THREADS=" + t.resources().cpusPerTask());
        }
        return SubmitScript.render(t, List.of(NAME_MARKER + t.jobName()), preamble, "$$");
    }

    @Override
    public String submit(Transport transport, String workdir, String scriptFileName) {
        commands.checkWorkdir(workdir, scriptFileName);
        String script = Shell.quote(scriptFileName);
        // setsid without fork keeps the PID that $! reports (a background child of a non-interactive shell
        // is no group leader), and makes it the process group that cancel kills. Where there is no setsid
        // (macOS), nohup keeps the job alive and cancel kills the process alone. All three streams are
        // redirected: a job holding the transport's pipes would keep this command from returning.
        // The job name is read with shell builtins (no sed, no pipe): on a busy machine each process
        // started per job costs.
        String command = "name=; while IFS= read -r line; do case $line in '" + NAME_MARKER + "'*) name=${line#'"
                + NAME_MARKER + "'}; break ;; esac; done < " + script + "; "
                + "launch=nohup; command -v setsid > /dev/null 2>&1 && launch=setsid; "
                + "$launch bash " + script + " \"$name\" < /dev/null > /dev/null 2>&1 & echo $!";
        CommandResult r = commands.run(transport, command, workdir);
        if (!r.ok()) {
            throw commands.failed(command, workdir, r);
        }
        String pid = r.stdout().strip();
        if (!PID.matcher(pid).matches()) {
            throw commands.unreadable("the process id", command, r);
        }
        return pid;
    }

    /**
     * One command for all jobs. Where there is a {@code /proc} (Linux), shell builtins read each
     * job's {@code stat} line there: {@code ps} reads every process of the machine to show a few,
     * which cost more than the rest of a poll. Elsewhere {@code ps}.
     */
    @Override
    public Map<String, JobInfo> poll(Transport transport, Collection<String> jobIds) {
        if (jobIds.isEmpty()) {
            return Map.of();
        }
        commands.checkJobIds(jobIds);
        var unique = new LinkedHashSet<>(jobIds);
        String ps = "ps -o pid=,stat=,etime= -p " + String.join(",", unique);
        String command = "if [ -r /proc/self/stat ]; then read -r up idle < /proc/uptime; echo \"" + UPTIME
                + " $up\"; for p in " + String.join(" ", unique)
                + "; do s=; { read -r s < /proc/$p/stat; } 2> /dev/null;"
                + " [ -z \"$s\" ] || echo \"$p ${s##*) }\"; done; else " + ps + "; fi";
        CommandResult r = commands.run(transport, command, null);
        Map<String, JobInfo> listed = r.stdout().startsWith(UPTIME + " ") ? fromProc(r, command) : fromPs(r, command);
        var result = new LinkedHashMap<String, JobInfo>();
        for (String id : jobIds) {
            result.put(id, listed.getOrDefault(id, JobInfo.missing(id)));
        }
        return result;
    }

    /**
     * "uptime SECONDS" then "PID STATE PPID ... STARTTIME ...": the fields of {@code /proc/PID/stat}
     * after the command name, the start time 19 fields after the state, in clock ticks since boot
     * (USER_HZ, 100 on Linux).
     */
    private Map<String, JobInfo> fromProc(CommandResult r, String command) {
        if (!r.ok()) {
            throw commands.failed(command, null, r);
        }
        List<String> lines = r.stdout().lines().filter(l -> !l.isBlank()).toList();
        double uptime;
        try {
            uptime = Double.parseDouble(
                    lines.getFirst().substring(UPTIME.length() + 1).strip());
        } catch (NumberFormatException e) {
            throw commands.unreadable("the uptime", command, r);
        }
        var listed = new HashMap<String, JobInfo>();
        for (String line : lines.subList(1, lines.size())) {
            String[] f = WHITESPACE.split(line.strip());
            if (f.length < 21
                    || !PID.matcher(f[0]).matches()
                    || !PID.matcher(f[20]).matches()) {
                throw commands.unreadable("a process", command, r);
            }
            long elapsed = Math.max(0, Math.round(uptime - Long.parseLong(f[20]) / 100.0));
            listed.put(f[0], new JobInfo(f[0], state(f[1]), f[1], null, elapsed, null, null, null));
        }
        return listed;
    }

    private Map<String, JobInfo> fromPs(CommandResult r, String command) {
        var listed = new HashMap<String, JobInfo>();
        for (String[] f : rows(r, command, 3)) {
            listed.put(
                    f[0], new JobInfo(f[0], state(f[1]), f[1], null, WallTimes.parseElapsed(f[2]), null, null, null));
        }
        return listed;
    }

    @Override
    public Optional<String> findByName(Transport transport, String jobName) {
        commands.checkJobName(jobName);
        String command = "ps -o pid=,pgid=,stat=,etime=,args= -u \"$(id -u)\"";
        String subshell = null;
        for (String[] f : rows(commands.run(transport, command, null), command, 5)) {
            // "bash <script> <job name>" as submit starts it, or "env -i ... bash <script> <job name>" while
            // the script starts itself again in a clean environment; its subshells carry the same arguments
            String[] args = WHITESPACE.split(f[4].strip());
            if (args.length >= 3
                    && args[args.length - 1].equals(jobName)
                    && state(f[2]).isActive()) {
                if (f[0].equals(f[1])) {
                    // the job itself: setsid made it the leader of its process group
                    return Optional.of(f[0]);
                }
                if (subshell == null && args[0].endsWith("bash")) {
                    subshell = f[0];
                }
            }
        }
        // no group leader (no setsid, macOS): the first bash of the job's, by pid
        return Optional.ofNullable(subshell);
    }

    @Override
    public void cancel(Transport transport, String jobId) {
        commands.checkJobId(jobId);
        // The group first, so that the job's children go too; the process alone if it has no group of its own.
        commands.require(transport, "kill -TERM -" + jobId + " 2> /dev/null || kill -TERM " + jobId, null);
    }

    /** ps's lines split into {@code fields} columns, the last one keeping its spaces. */
    private List<String[]> rows(CommandResult r, String command, int fields) {
        // ps exits 1 without a word when no process matched: an empty listing, not a failure.
        if (!r.ok() && !(r.exitCode() == 1 && r.stderr().isBlank())) {
            throw commands.failed(command, null, r);
        }
        var rows = new ArrayList<String[]>();
        for (String line : r.stdout().lines().toList()) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = WHITESPACE.split(line.strip(), fields);
            if (f.length < fields) {
                throw commands.unreadable("a process", command, r);
            }
            rows.add(f);
        }
        return rows;
    }

    /** The first letter of ps's STAT (procps and BSD ps), as AiiDA maps it. */
    static JobState state(String stat) {
        return switch (stat.isEmpty() ? '?' : stat.charAt(0)) {
            case 'R', 'S', 'D', 'I', 'U', 'W' -> JobState.RUNNING;
            case 'T', 't' -> JobState.SUSPENDED;
            case 'Z', 'X' -> JobState.DONE;
            default -> JobState.UNDETERMINED;
        };
    }
}
