package dev.cairn.engine.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The parts of a submit script that every scheduler writes the same way, in AiiDA's order:
 * directives, then the job's environment, prepend text, the commands and the append text. A
 * scheduler gives its directives and any shell lines of its own that must run first.
 */
final class SubmitScript {

    private SubmitScript() {}

    /**
     * @param directives {@code #SBATCH}/{@code #PBS} lines; they must come before any command, or the
     *     batch system ignores them
     * @param preamble shell lines the scheduler needs before the job's own (output redirection …)
     * @param jobId the shell expression of the job's own id ({@code $$}, {@code ${SLURM_JOB_ID}} …), which
     *     the script writes to {@link Scheduler#STARTED_FILE} as it starts
     */
    static String render(JobTemplate t, List<String> directives, List<String> preamble, String jobId) {
        var lines = new ArrayList<String>();
        lines.add("#!/bin/bash");
        lines.addAll(directives);
        if (!t.batch().customSchedulerCommands().isBlank()) {
            lines.add(t.batch().customSchedulerCommands().strip());
        }
        lines.add("");
        lines.add("cd " + Shell.quote(t.workdir()) + " || exit 1");
        lines.addAll(preamble);
        // Renamed into place, so that a reader sees no file or the whole id: what tells a step tried again
        // that this job ran, when the queue no longer knows it.
        String started = Scheduler.STARTED_FILE;
        lines.add("printf '%s\\n' \"" + jobId + "\" > " + started + ".tmp && mv -f " + started + ".tmp " + started);
        for (Map.Entry<String, String> e : t.batch().environment().entrySet()) {
            lines.add("export " + e.getKey() + "=" + Shell.quote(e.getValue()));
        }
        if (!t.prependText().isBlank()) {
            lines.add("");
            lines.add(t.prependText().strip());
        }
        lines.add("");
        for (JobCommand c : t.commands()) {
            lines.add(commandLine(t, c));
        }
        if (!t.appendText().isBlank()) {
            lines.add("");
            lines.add(t.appendText().strip());
        }
        return String.join("\n", lines) + "\n";
    }

    static String commandLine(JobTemplate t, JobCommand c) {
        var words = new ArrayList<String>();
        if (c.mpi()) {
            for (String word : t.mpirunCommand()) {
                words.add(Shell.quote(placeholders(word, t.resources())));
            }
        }
        for (String word : c.argv()) {
            words.add(Shell.quote(word));
        }
        if (c.stdinName() != null) {
            words.add("< " + Shell.quote(c.stdinName()));
        }
        if (c.stdoutName() != null) {
            words.add("> " + Shell.quote(c.stdoutName()));
        }
        if (c.stderrName() != null && c.stderrName().equals(c.stdoutName())) {
            // one file for both: a second '2> file' would truncate what stdout wrote
            words.add("2>&1");
        } else if (c.stderrName() != null) {
            words.add("2> " + Shell.quote(c.stderrName()));
        }
        return String.join(" ", words);
    }

    private static String placeholders(String word, JobResources r) {
        return word.replace("{tot_num_mpiprocs}", Integer.toString(r.totalMpiprocs()))
                .replace("{num_machines}", Integer.toString(r.machines()))
                .replace("{num_mpiprocs_per_machine}", Integer.toString(r.mpiprocsPerMachine()))
                .replace("{num_cores_per_mpiproc}", Integer.toString(r.cpusPerTask()));
    }
}
