package dev.cairn.engine.scheduler;

import java.time.Duration;
import java.util.Collection;
import java.util.regex.Pattern;

import dev.cairn.engine.transport.CommandResult;
import dev.cairn.engine.transport.Transport;
import dev.cairn.storage.errors.InvalidInputException;

/**
 * Runs one scheduler's commands through a transport with its timeout, and turns a refusal into a
 * {@link SchedulerException} that says which scheduler, which command, where, and what it printed.
 */
final class SchedulerCommands {

    static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(1);

    private final String scheduler;
    private final Duration timeout;
    private final Pattern jobId;

    /** @param jobId what this batch system's job ids look like; anything else is refused before it reaches a shell */
    SchedulerCommands(String scheduler, Duration timeout, Pattern jobId) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new InvalidInputException(scheduler + " scheduler: command timeout must be positive, not " + timeout);
        }
        this.scheduler = scheduler;
        this.timeout = timeout;
        this.jobId = jobId;
    }

    CommandResult run(Transport transport, String command, String workdir) {
        return transport.exec(command, workdir, timeout);
    }

    /** stdout of a command that must succeed. */
    String require(Transport transport, String command, String workdir) {
        CommandResult r = run(transport, command, workdir);
        if (!r.ok()) {
            throw failed(command, workdir, r);
        }
        return r.stdout();
    }

    SchedulerException failed(String command, String workdir, CommandResult r) {
        return new SchedulerException(scheduler + ": '" + command + "' failed with exit code " + r.exitCode()
                + (workdir == null ? "" : " in " + workdir) + ": " + printed(r));
    }

    SchedulerException unreadable(String what, String command, CommandResult r) {
        return new SchedulerException(scheduler + ": cannot read " + what + " from '" + command + "': " + printed(r));
    }

    String checkJobId(String id) {
        if (id == null || !jobId.matcher(id).matches()) {
            throw new InvalidInputException(scheduler + ": '" + id + "' is not a job id of this batch system");
        }
        return id;
    }

    void checkJobIds(Collection<String> ids) {
        for (String id : ids) {
            checkJobId(id);
        }
    }

    String checkJobName(String name) {
        if (name == null || name.isBlank() || name.contains("\n")) {
            throw new InvalidInputException(scheduler + ": '" + name + "' is not a job name");
        }
        return name;
    }

    void checkWorkdir(String workdir, String scriptFileName) {
        if (workdir == null || !workdir.startsWith("/")) {
            throw new InvalidInputException(scheduler + ": working directory '" + workdir + "' is not absolute");
        }
        if (scriptFileName == null || scriptFileName.isBlank() || scriptFileName.contains("/")) {
            throw new InvalidInputException(
                    scheduler + ": script '" + scriptFileName + "' must be a file name in the working directory");
        }
    }

    private static String printed(CommandResult r) {
        String err = r.stderr().strip();
        String out = r.stdout().strip();
        if (err.isEmpty() && out.isEmpty()) {
            return "it printed nothing";
        }
        if (err.isEmpty()) {
            return "stdout: " + out;
        }
        return out.isEmpty() ? "stderr: " + err : "stderr: " + err + "; stdout: " + out;
    }
}
