package dev.cairn.engine.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import dev.cairn.storage.errors.InvalidInputException;

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
        assertEquals(BatchOptions.DEFAULTS, t.batch());
        assertEquals(null, t.batch().maxWallclockSeconds());
        assertTrue(t.batch().importSysEnvironment(), "as AiiDA's import_sys_environment");
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
    void everyValueIsCheckedWithTheJobNameInTheMessage() {
        JobTemplate t = serial();
        assertEquals(
                "job " + NAME + ": no command to run",
                refused(() -> new JobTemplate(
                        NAME,
                        WORKDIR,
                        List.of(),
                        JobTemplate.DEFAULT_MPIRUN,
                        JobResources.SERIAL,
                        BatchOptions.DEFAULTS,
                        "",
                        "",
                        "o",
                        "e")));
        assertEquals(
                "job " + NAME + ": stdout file name 'logs/out' must be a plain file name of letters, digits,"
                        + " '.', '_', '+' or '-'",
                refused(() -> t.withSchedulerOutput("logs/out", "err")));
        refused(() -> t.withSchedulerOutput("out", ".."));
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

    /** Checked where they are made, so a job's options are refused before anything of the job is stored. */
    @Test
    void everyBatchOptionIsCheckedWhenItIsMade() {
        BatchOptions b = BatchOptions.DEFAULTS;
        assertEquals("max wall-clock time must be positive seconds, not 0", refused(() -> b.withLimits(0L, null)));
        assertEquals("max memory must be positive kB, not -1", refused(() -> b.withLimits(60L, -1L)));
        assertEquals(
                "queue 'debug;rm' must be letters, digits, '.', '_', '@', '+' or '-' (it goes into a directive unquoted)",
                refused(() -> serial().withQueue("debug;rm", null, null)));
        refused(() -> b.withQueue(null, "my account", null));
        refused(() -> b.withQueue(null, null, "high\nprio"));
        assertEquals(
                "custom scheduler commands contains a NUL character",
                refused(() -> b.withCustomSchedulerCommands("a\0")));
        assertEquals(
                "environment variable name '1X' must be letters, digits and '_', not starting with a digit",
                refused(() -> b.withEnvironment(Map.of("1X", "v"), true)));
        assertEquals(
                "environment variable X needs a value without NUL characters",
                refused(() -> b.withEnvironment(Map.of("X", "a\0b"), true)));
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
                List.copyOf(serial().withEnvironment(env, false)
                        .batch()
                        .environment()
                        .keySet()));
    }

    private static String refused(Executable build) {
        return assertThrows(InvalidInputException.class, build).getMessage();
    }
}
