package dev.cairn.engine.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.cairn.engine.transport.Transport;

/**
 * What every {@link Scheduler} does with a real batch system, run against each implementation by a
 * subclass that says which scheduler, on which transport: a job's script runs its commands in its work
 * directory with its text and environment, a job is found by its name and by nothing else, a cancelled
 * job ends, and a job the batch system never had is reported missing.
 */
abstract class SchedulerContract {

    static final String SCRIPT = Scheduler.SUBMIT_SCRIPT;
    private static final Duration DONE_WITHIN = Duration.ofSeconds(30);

    /** The scheduler under test. */
    protected abstract Scheduler scheduler();

    /** A transport to the machine the scheduler's commands run on (this one), open. */
    protected abstract Transport transport();

    /** A job id the batch system has never given, in its own form. */
    protected abstract String neverSubmitted();

    protected Path workdir;
    /** The job a test submitted last, cancelled after it if it still runs. */
    protected String submitted;

    @BeforeEach
    void workdir() throws IOException {
        workdir = Files.createTempDirectory("cairn-" + getClass().getSimpleName() + "-");
    }

    @AfterEach
    void cancelWhatStillRuns() {
        // A job a failed test left running must not outlive it.
        if (submitted != null
                && scheduler()
                        .poll(transport(), List.of(submitted))
                        .get(submitted)
                        .state()
                        .isActive()) {
            scheduler().cancel(transport(), submitted);
        }
        transport().remove(workdir.toString());
    }

    @Test
    void aJobRunsItsCommandsInItsWorkdirWithItsTextAndEnvironment() throws IOException {
        submitted = submit(JobTemplate.of(
                        name(),
                        workdir.toString(),
                        JobCommand.of("sleep", "1"),
                        JobCommand.of("echo", "ran").withStreams(null, "result.txt", null))
                .withText("echo starting", "echo \"$GREETING\" > greeting.txt; echo oops >&2")
                .withEnvironment(Map.of("GREETING", "hello $world"), true));

        assertEquals(JobState.DONE, waitUntil(submitted, JobState.DONE).state());
        assertEquals("ran\n", read("result.txt"));
        assertEquals("hello $world\n", read("greeting.txt"), "exported, with no expansion");
        assertTrue(read(stdoutFile()).startsWith("starting\n"), read(stdoutFile()));
        assertTrue(read(stderrFile()).contains("oops\n"), read(stderrFile()));
    }

    @Test
    void aJobIsFoundByItsNameAndOnlyByIt() {
        String name = name();
        submitted = submit(JobTemplate.of(name, workdir.toString(), JobCommand.of("sleep", "60")));

        assertTrue(scheduler()
                .poll(transport(), List.of(submitted))
                .get(submitted)
                .state()
                .isActive());
        assertEquals(Optional.of(submitted), scheduler().findByName(transport(), name));
        assertEquals(Optional.empty(), scheduler().findByName(transport(), name()));
        assertEquals(
                Optional.empty(),
                scheduler().findByName(transport(), name.substring(0, name.length() - 2)),
                "a prefix is not the name");
    }

    @Test
    void aCancelledJobEndsWithoutRunningTheRestAndIsNotFoundAgain() {
        String name = name();
        submitted = submit(JobTemplate.of(
                name, workdir.toString(), JobCommand.of("sleep", "60"), JobCommand.of("touch", "not-reached")));

        scheduler().cancel(transport(), submitted);

        assertEquals(JobState.DONE, waitUntil(submitted, JobState.DONE).state());
        assertEquals(Optional.empty(), scheduler().findByName(transport(), name));
        assertFalse(Files.exists(workdir.resolve("not-reached")));
    }

    @Test
    void aJobTheBatchSystemNeverHadIsMissing() {
        String unknown = neverSubmitted();
        assertEquals(Map.of(unknown, JobInfo.missing(unknown)), scheduler().poll(transport(), List.of(unknown)));
    }

    /** The file in the work directory the batch system wrote the {@link #submitted} job's standard output to. */
    protected String stdoutFile() {
        return JobTemplate.DEFAULT_STDOUT;
    }

    /** Likewise its standard error. */
    protected String stderrFile() {
        return JobTemplate.DEFAULT_STDERR;
    }

    protected final String submit(JobTemplate job) {
        transport()
                .write(
                        workdir.resolve(SCRIPT).toString(),
                        scheduler().submitScript(job).getBytes(StandardCharsets.UTF_8));
        String id = scheduler().submit(transport(), workdir.toString(), SCRIPT);
        assertFalse(id.isBlank(), "a job id");
        return id;
    }

    protected final JobInfo waitUntil(String id, JobState state) {
        long deadline = System.nanoTime() + DONE_WITHIN.toNanos();
        while (true) {
            JobInfo info = scheduler().poll(transport(), List.of(id)).get(id);
            if (info.state() == state) {
                return info;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("job " + id + " is not " + state + " after " + DONE_WITHIN + ": " + info);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    protected final String read(String file) throws IOException {
        return Files.readString(workdir.resolve(file));
    }

    protected static String name() {
        return "cairn-" + UUID.randomUUID() + "-1";
    }
}
