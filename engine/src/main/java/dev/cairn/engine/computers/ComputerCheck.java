package dev.cairn.engine.computers;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

import dev.cairn.engine.internal.calcjob.ComputerAccess;
import dev.cairn.engine.internal.calcjob.ComputerSettings;
import dev.cairn.engine.scheduler.Scheduler;
import dev.cairn.engine.transport.CommandResult;
import dev.cairn.engine.transport.Transport;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.visibility.Internal;

/**
 * Tests a stored computer as {@code verdi computer test} does, through the engine's own access
 * to it (its connection limit, its kept SSH connections): the settings are valid; a transport
 * opens; {@code whoami} runs; a command's output is exactly what it printed (a login that prints
 * a banner on every command breaks the parsing of scheduler output); the work directory exists
 * or can be made and takes a file; and the scheduler lists this user's jobs. A computer that is
 * down is a failed check with the transport's message, never an exception; only the database
 * failing is thrown.
 */
public final class ComputerCheck {

    /** How long each command of the test may take on the computer. */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);

    private final ComputerAccess access;

    @Internal
    public ComputerCheck(ComputerAccess access) {
        this.access = Objects.requireNonNull(access, "access");
    }

    /** Runs the checks on {@code computer}; see the class comment. */
    public ComputerTestReport run(Computer computer) {
        List<CheckResult> results = new ArrayList<>();
        Stopwatch settings = new Stopwatch();
        ComputerSettings parsed;
        Scheduler scheduler;
        try {
            parsed = ComputerSettings.of(computer);
            scheduler = ComputerAccess.scheduler(computer);
        } catch (RuntimeException e) {
            results.add(settings.failed("settings", e));
            return new ComputerTestReport(computer.label(), results);
        }
        results.add(settings.ok(
                "settings",
                "transport " + computer.transportType() + " to " + computer.hostname() + ", scheduler "
                        + computer.schedulerType() + ", work directory " + parsed.workdir()));
        Stopwatch connecting = new Stopwatch();
        try {
            access.withTransport(computer, transport -> {
                results.add(connecting.ok("connection", "opened a " + computer.transportType() + " transport"));
                results.add(whoami(transport));
                results.add(output(transport));
                results.add(workdir(transport, parsed.workdir()));
                results.add(scheduler(transport, scheduler, computer.schedulerType()));
                return null;
            });
        } catch (StorageException e) {
            throw e;
        } catch (Exception e) {
            // the checks catch their own failures: what comes here failed opening (or closing) the transport
            results.add(connecting.failed(results.size() == 1 ? "connection" : "close", e));
        }
        return new ComputerTestReport(computer.label(), results);
    }

    private static CheckResult whoami(Transport transport) {
        Stopwatch clock = new Stopwatch();
        try {
            CommandResult r = transport.exec("whoami", null, COMMAND_TIMEOUT);
            if (!r.ok()) {
                return clock.failed("whoami", "'whoami' failed with exit code " + r.exitCode() + ": " + printed(r));
            }
            return clock.ok("whoami", "logged in as " + r.stdout().strip());
        } catch (RuntimeException e) {
            return clock.failed("whoami", e);
        }
    }

    /** AiiDA's "spurious output" check: scheduler listings are parsed from what commands print. */
    private static CheckResult output(Transport transport) {
        Stopwatch clock = new Stopwatch();
        String marker = "cairn-" + UUID.randomUUID();
        try {
            CommandResult r = transport.exec("echo " + marker, null, COMMAND_TIMEOUT);
            if (!r.ok()) {
                return clock.failed("output", "'echo' failed with exit code " + r.exitCode() + ": " + printed(r));
            }
            if (!r.stdout().equals(marker + "\n") || !r.stderr().isEmpty()) {
                return clock.failed(
                        "output",
                        "a command prints more than its own output (a login banner or profile script?): " + printed(r)
                                + "; scheduler listings would not parse");
            }
            return clock.ok("output", "commands print only their own output");
        } catch (RuntimeException e) {
            return clock.failed("output", e);
        }
    }

    private static CheckResult workdir(Transport transport, String workdir) {
        Stopwatch clock = new Stopwatch();
        String probe = workdir + "/.cairn-test-" + UUID.randomUUID();
        try {
            boolean existed = transport.isDirectory(workdir);
            transport.mkdirs(workdir);
            byte[] content = probe.getBytes(StandardCharsets.UTF_8);
            transport.write(probe, content);
            try {
                if (!Arrays.equals(content, transport.read(probe))) {
                    return clock.failed("workdir", probe + " did not read back as written");
                }
            } finally {
                transport.remove(probe);
            }
            return clock.ok("workdir", workdir + (existed ? " exists" : " was made") + " and is writable");
        } catch (RuntimeException e) {
            return clock.failed("workdir", e);
        }
    }

    private static CheckResult scheduler(Transport transport, Scheduler scheduler, String type) {
        Stopwatch clock = new Stopwatch();
        // a name no job has: the listing runs in full and finds nothing
        String name = "cairn-test-" + UUID.randomUUID();
        try {
            Optional<String> found = scheduler.findByName(transport, name);
            return found.isEmpty()
                    ? clock.ok("scheduler", type + " listed this user's jobs")
                    : clock.failed("scheduler", type + " listed a job named " + name + " that cannot exist: " + found);
        } catch (RuntimeException e) {
            return clock.failed("scheduler", e);
        }
    }

    private static String printed(CommandResult r) {
        return "stdout '" + r.stdout().strip() + "', stderr '" + r.stderr().strip() + "'";
    }

    /** Times one check from when it is made. */
    private static final class Stopwatch {
        private final long start = System.nanoTime();

        CheckResult ok(String name, String message) {
            return new CheckResult(name, true, message, took());
        }

        CheckResult failed(String name, String message) {
            return new CheckResult(name, false, message, took());
        }

        CheckResult failed(String name, Exception e) {
            return failed(name, e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage());
        }

        private Duration took() {
            return Duration.ofNanos(System.nanoTime() - start);
        }
    }
}
