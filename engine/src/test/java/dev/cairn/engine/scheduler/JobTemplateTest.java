package dev.cairn.engine.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import dev.cairn.errors.InvalidInputException;

class JobTemplateTest {

    static final String NAME = "cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-1";
    static final String WORKDIR = "/scratch/alice/cairn/5f/0c/1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60";

    static JobTemplate serial() {
        return JobTemplate.of(NAME, WORKDIR, JobCommand.of("/bin/echo", "hello"));
    }

    @Test
    void defaultsAreASerialJobWithTheSchedulerStreamsInTheWorkdir() {
        JobTemplate t = serial();
        assertEquals(JobResources.SERIAL, t.resources());
        assertEquals("_scheduler-stdout.txt", t.stdoutName());
        assertEquals(WORKDIR + "/_scheduler-stderr.txt", t.inWorkdir(t.stderrName()));
        assertEquals(null, t.maxWallclockSeconds());
        assertTrue(t.importSysEnvironment(), "as AiiDA's import_sys_environment");
    }

    @Test
    void aJobNameThatABatchSystemWouldRewriteIsRefusedByName() {
        String message = refused(() -> JobTemplate.of("cairn job 1", WORKDIR, JobCommand.of("true")));
        assertTrue(message.startsWith("job name 'cairn job 1' must be 1 to 128 letters, digits"), message);
        refused(() -> JobTemplate.of("-starts-with-dash", WORKDIR, JobCommand.of("true")));
        refused(() -> JobTemplate.of("x".repeat(129), WORKDIR, JobCommand.of("true")));
        JobTemplate.of("x".repeat(128), WORKDIR, JobCommand.of("true"));
    }

    @Test
    void theWorkdirMustBeAbsoluteAndSafeInADirective() {
        assertEquals(
                "job " + NAME + ": working directory 'scratch/x' must be an absolute path without whitespace,"
                        + " quotes, '\\', '%', '$' or '`' (batch-system directives cannot quote them)",
                refused(() -> JobTemplate.of(NAME, "scratch/x", JobCommand.of("true"))));
        refused(() -> JobTemplate.of(NAME, "/scratch/my dir", JobCommand.of("true")));
        refused(() -> JobTemplate.of(NAME, "/scratch/100%", JobCommand.of("true")));
    }

    @Test
    void everyOptionIsCheckedWithTheJobNameInTheMessage() {
        JobTemplate t = serial();
        assertEquals(
                "job " + NAME + ": no command to run",
                refused(() -> new JobTemplate(
                        NAME,
                        WORKDIR,
                        List.of(),
                        JobTemplate.DEFAULT_MPIRUN,
                        JobResources.SERIAL,
                        null,
                        null,
                        null,
                        null,
                        null,
                        "",
                        "",
                        "",
                        "o",
                        "e",
                        Map.of(),
                        true)));
        assertEquals(
                "job " + NAME + ": max wall-clock time must be positive seconds, not 0",
                refused(() -> t.withLimits(0L, null)));
        assertEquals("job " + NAME + ": max memory must be positive kB, not -1", refused(() -> t.withLimits(60L, -1L)));
        assertEquals(
                "job " + NAME + ": queue 'debug;rm' must be letters, digits, '.', '_', '@', '+' or '-'"
                        + " (it goes into a directive unquoted)",
                refused(() -> t.withQueue("debug;rm", null, null)));
        refused(() -> t.withQueue(null, "my account", null));
        refused(() -> t.withQueue(null, null, "high\nprio"));
        assertEquals(
                "job " + NAME + ": stdout file name 'logs/out' must be a plain file name of letters, digits,"
                        + " '.', '_', '+' or '-'",
                refused(() -> t.withSchedulerOutput("logs/out", "err")));
        refused(() -> t.withSchedulerOutput("out", ".."));
        assertEquals(
                "job " + NAME + ": environment variable name '1X' must be letters, digits and '_', not starting"
                        + " with a digit",
                refused(() -> t.withEnvironment(Map.of("1X", "v"), true)));
        assertEquals(
                "job " + NAME + ": unknown placeholder {tot_procs} in MPI launcher [mpirun, -n, {tot_procs}];"
                        + " known: [{tot_num_mpiprocs}, {num_machines}, {num_mpiprocs_per_machine}, {num_cores_per_mpiproc}]",
                refused(() -> t.withMpirunCommand(List.of("mpirun", "-n", "{tot_procs}"))));
        assertEquals(
                "job " + NAME + ": a command runs with MPI but the MPI launcher is empty",
                refused(() -> JobTemplate.of(
                                NAME, WORKDIR, JobCommand.of("pw.x").withMpi())
                        .withMpirunCommand(List.of())));
        assertEquals(
                "job " + NAME + ": no resources (use JobResources.SERIAL for one process)",
                refused(() -> t.withResources(null)));
    }

    @Test
    void resourcesGivenAsATotalMustSpreadEvenly() {
        assertEquals(new JobResources(2, 8, 1), JobResources.ofTotal(2, 16));
        assertEquals(16, new JobResources(2, 8, 4).totalMpiprocs());
        assertEquals(32, new JobResources(2, 8, 4).cpusPerMachine());
        assertEquals(
                "a total of 10 MPI processes cannot be spread evenly over 3 machines",
                refused(() -> JobResources.ofTotal(3, 10)));
        assertEquals(
                "a job needs at least one MPI process per machine, not 0", refused(() -> new JobResources(1, 0, 1)));
        assertEquals(
                "a job needs at least one CPU per task, not 0", refused(() -> JobResources.SERIAL.withCpusPerTask(0)));
    }

    @Test
    void commandsKeepEveryWordAndRefuseEmptyOnes() {
        assertEquals("a job command needs at least the program to run", refused(() -> JobCommand.of()));
        refused(() -> JobCommand.of("pw.x", ""));
        assertEquals(
                "stdout file '' of job command [pw.x] must be a non-blank file name on one line",
                refused(() -> JobCommand.of("pw.x").withStreams(null, "", null)));
    }

    @Test
    void theEnvironmentIsSortedSoTheSameTemplateGivesTheSameScript() {
        var env = new LinkedHashMap<String, String>();
        env.put("ZETA", "1");
        env.put("ALPHA", "2");
        assertEquals(
                List.of("ALPHA", "ZETA"),
                List.copyOf(serial().withEnvironment(env, false).environment().keySet()));
    }

    private static String refused(Executable build) {
        return assertThrows(InvalidInputException.class, build).getMessage();
    }
}
