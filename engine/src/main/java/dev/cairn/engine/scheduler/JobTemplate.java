package dev.cairn.engine.scheduler;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * Everything a {@link Scheduler} needs to write a job's submit script (AiiDA's {@code JobTemplate}
 * and the CalcJob {@code metadata.options}). Start from {@link #of} and change what differs with
 * the {@code with…} methods; every value is checked when the template is built, so a script is
 * never half-written for a bad option.
 *
 * @param jobName the name the batch system shows. The engine puts the process node's UUID and the
 *     attempt in it ({@code cairn-<uuid>-<attempt>}) so that {@link Scheduler#findByName} finds a job
 *     that was submitted by a worker that died before it recorded the job id. It is used as given,
 *     never shortened or cleaned, or that search would miss it: letters, digits, '.', '_', '-'
 * @param workdir absolute path of the job's directory on the computer; the script runs there
 * @param commands run one after the other
 * @param mpirunCommand the launcher put before commands {@link JobCommand#withMpi with MPI}; the
 *     placeholders {@code {tot_num_mpiprocs}}, {@code {num_machines}}, {@code {num_mpiprocs_per_machine}}
 *     and {@code {num_cores_per_mpiproc}} are replaced from the resources
 * @param batch limits, queue, directives of its own and environment, as the job's options give them
 * @param prependText shell text run before the commands, after the environment is set
 * @param appendText shell text run after the commands
 * @param stdoutName file (in {@code workdir}) for the job's standard output, {@code stderrName} likewise
 */
public record JobTemplate(
        String jobName,
        String workdir,
        List<JobCommand> commands,
        List<String> mpirunCommand,
        JobResources resources,
        BatchOptions batch,
        String prependText,
        String appendText,
        String stdoutName,
        String stderrName) {

    public static final List<String> DEFAULT_MPIRUN = List.of("mpirun", "-np", "{tot_num_mpiprocs}");
    public static final String DEFAULT_STDOUT = "_scheduler-stdout.txt";
    public static final String DEFAULT_STDERR = "_scheduler-stderr.txt";

    /** 128 characters: SLURM keeps that many in squeue's output; PBS Pro allows 236. */
    private static final Pattern JOB_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");
    /** Batch-system directives cannot quote, and SLURM expands '%' in file names, so a workdir has none of these. */
    private static final Pattern WORKDIR = Pattern.compile("/[^\\s'\"\\\\%$`]*");

    private static final Pattern FILE_NAME = Pattern.compile("[A-Za-z0-9_.+-]+");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{[a-z_]*}");
    private static final List<String> PLACEHOLDERS =
            List.of("{tot_num_mpiprocs}", "{num_machines}", "{num_mpiprocs_per_machine}", "{num_cores_per_mpiproc}");

    public JobTemplate {
        if (jobName == null || !JOB_NAME.matcher(jobName).matches()) {
            throw new InvalidInputException("job name '" + jobName + "' must be 1 to 128 letters, digits, '.', '_'"
                    + " or '-' starting with a letter or digit: batch systems rewrite other names, and a rewritten name"
                    + " cannot be found again");
        }
        String job = "job " + jobName + ": ";
        if (workdir == null || !WORKDIR.matcher(workdir).matches()) {
            throw new InvalidInputException(job + "working directory '" + workdir + "' must be an absolute path"
                    + " without whitespace, quotes, '\\', '%', '$' or '`' (batch-system directives cannot quote them)");
        }
        if (commands == null || commands.isEmpty()) {
            throw new InvalidInputException(job + "no command to run");
        }
        commands = List.copyOf(commands);
        mpirunCommand = List.copyOf(mpirunCommand);
        if (mpirunCommand.isEmpty() && commands.stream().anyMatch(JobCommand::mpi)) {
            throw new InvalidInputException(job + "a command runs with MPI but the MPI launcher is empty");
        }
        for (String word : mpirunCommand) {
            for (var m = PLACEHOLDER.matcher(word); m.find(); ) {
                if (!PLACEHOLDERS.contains(m.group())) {
                    throw new InvalidInputException(job + "unknown placeholder " + m.group() + " in MPI launcher "
                            + mpirunCommand + "; known: " + PLACEHOLDERS);
                }
            }
        }
        if (resources == null) {
            throw new InvalidInputException(job + "no resources (use JobResources.SERIAL for one process)");
        }
        if (batch == null) {
            throw new InvalidInputException(job + "no batch options (use BatchOptions.DEFAULTS)");
        }
        try {
            prependText = BatchOptions.text("prepend text", prependText);
            appendText = BatchOptions.text("append text", appendText);
        } catch (InvalidInputException e) {
            throw new InvalidInputException(job + e.getMessage());
        }
        checkFileName(job, "stdout", stdoutName);
        checkFileName(job, "stderr", stderrName);
    }

    /** A serial job with the defaults: no limits, default queue, the system environment imported. */
    public static JobTemplate of(String jobName, String workdir, JobCommand... commands) {
        return new JobTemplate(
                jobName,
                workdir,
                List.of(commands),
                DEFAULT_MPIRUN,
                JobResources.SERIAL,
                BatchOptions.DEFAULTS,
                "",
                "",
                DEFAULT_STDOUT,
                DEFAULT_STDERR);
    }

    public JobTemplate withResources(JobResources r) {
        return new JobTemplate(
                jobName, workdir, commands, mpirunCommand, r, batch, prependText, appendText, stdoutName, stderrName);
    }

    public JobTemplate withMpirunCommand(List<String> launcher) {
        return new JobTemplate(
                jobName,
                workdir,
                commands,
                launcher,
                resources,
                batch,
                prependText,
                appendText,
                stdoutName,
                stderrName);
    }

    public JobTemplate withBatch(BatchOptions options) {
        return new JobTemplate(
                jobName,
                workdir,
                commands,
                mpirunCommand,
                resources,
                options,
                prependText,
                appendText,
                stdoutName,
                stderrName);
    }

    /** Wall-clock and memory limits; null leaves either to the queue. */
    public JobTemplate withLimits(Long wallclockSeconds, Long memoryKb) {
        return withBatch(batch.withLimits(wallclockSeconds, memoryKb));
    }

    /** Where the job is charged and queued; null leaves any of them to the batch system. */
    public JobTemplate withQueue(String queueName, String accountName, String qosName) {
        return withBatch(batch.withQueue(queueName, accountName, qosName));
    }

    public JobTemplate withCustomSchedulerCommands(String lines) {
        return withBatch(batch.withCustomSchedulerCommands(lines));
    }

    public JobTemplate withEnvironment(Map<String, String> variables, boolean importSystem) {
        return withBatch(batch.withEnvironment(variables, importSystem));
    }

    public JobTemplate withText(String prepend, String append) {
        return new JobTemplate(
                jobName, workdir, commands, mpirunCommand, resources, batch, prepend, append, stdoutName, stderrName);
    }

    public JobTemplate withSchedulerOutput(String stdout, String stderr) {
        return new JobTemplate(
                jobName, workdir, commands, mpirunCommand, resources, batch, prependText, appendText, stdout, stderr);
    }

    /** {@code workdir/name}: batch systems resolve relative paths in directives against different directories. */
    String inWorkdir(String name) {
        return workdir.endsWith("/") ? workdir + name : workdir + "/" + name;
    }

    private static void checkFileName(String job, String what, String name) {
        if (name == null || !FILE_NAME.matcher(name).matches() || name.equals(".") || name.equals("..")) {
            throw new InvalidInputException(job + what + " file name '" + name
                    + "' must be a plain file name of letters, digits, '.', '_', '+' or '-'");
        }
    }
}
