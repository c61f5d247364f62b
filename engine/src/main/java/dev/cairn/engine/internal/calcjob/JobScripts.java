package dev.cairn.engine.internal.calcjob;

import java.util.ArrayList;
import java.util.List;

import dev.cairn.engine.process.CalcInfo;
import dev.cairn.engine.process.JobOptions;
import dev.cairn.engine.scheduler.JobCommand;
import dev.cairn.engine.scheduler.JobResources;
import dev.cairn.engine.scheduler.JobTemplate;
import dev.cairn.storage.graph.Code;
import dev.cairn.storage.graph.PortableCode;

/**
 * The job template of a calculation job: the code's command line from the job's
 * {@code prepare}, the options, and the text the computer, the code and the options put
 * around it (prepend in that order, append in the reverse, after the job's own append text).
 */
final class JobScripts {

    private JobScripts() {}

    static JobTemplate template(
            String jobName, String workdir, Code code, ComputerSettings computer, CalcInfo info, JobOptions options) {
        List<String> argv = new ArrayList<>();
        // a portable code comes with the job, into its work directory
        argv.add(code instanceof PortableCode ? "./" + code.executable() : code.executable());
        argv.addAll(info.arguments());
        JobCommand command = JobCommand.of(argv.toArray(String[]::new))
                .withStreams(info.stdinName(), info.stdoutName(), info.stderrName());
        boolean mpi = code.withMpi() != null ? code.withMpi() : options.withMpi();
        return build(
                jobName,
                workdir,
                mpi ? command.withMpi() : command,
                computer,
                options,
                join(computer.prependText(), code.prependText(), options.prependText()),
                join(info.appendText(), options.appendText(), code.appendText(), computer.appendText()));
    }

    private static JobTemplate build(
            String jobName,
            String workdir,
            JobCommand command,
            ComputerSettings computer,
            JobOptions o,
            String prepend,
            String append) {
        int perMachine = o.mpiprocsPerMachine() != null
                ? o.mpiprocsPerMachine()
                : computer.defaultMpiprocsPerMachine() != null ? computer.defaultMpiprocsPerMachine() : 1;
        // one constructor call: each with… would check the whole template again
        return new JobTemplate(
                jobName,
                workdir,
                List.of(command),
                computer.mpirunCommand(),
                new JobResources(o.machines(), perMachine, o.coresPerMpiproc()),
                o.batch(),
                prepend,
                append,
                JobTemplate.DEFAULT_STDOUT,
                JobTemplate.DEFAULT_STDERR);
    }

    private static String join(String... parts) {
        StringBuilder text = new StringBuilder();
        for (String p : parts) {
            if (p != null && !p.isBlank()) {
                text.append(p.endsWith("\n") ? p : p + "\n");
            }
        }
        return text.toString();
    }
}
