package dev.cairn.engine.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.cairn.engine.testing.SlurmCluster;
import dev.cairn.engine.transport.LocalTransport;

/**
 * The SLURM scheduler against a real one-node cluster on this machine, started (and installed from
 * Debian's packages if missing) by {@code scheduler/slurm-one-node.sh}. It needs root; it fails, and
 * says why, where the cluster cannot be had.
 */
class SlurmSchedulerIT {

    static final String SCRIPT = "_cairn_submit.sh";
    static SlurmCluster cluster;
    static LocalTransport transport;

    final SlurmScheduler slurm = new SlurmScheduler();
    Path workdir;
    String submitted;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = SlurmCluster.start();
        transport = new LocalTransport(Map.of("SLURM_CONF", cluster.conf()));
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (transport != null) {
            transport.close();
        }
        cluster.close();
    }

    @BeforeEach
    void workdir() throws IOException {
        workdir = Files.createTempDirectory("cairn-slurm-");
    }

    @AfterEach
    void cleanUp() {
        if (submitted != null
                && slurm.poll(transport, List.of(submitted))
                        .get(submitted)
                        .state()
                        .isActive()) {
            slurm.cancel(transport, submitted);
        }
        transport.remove(workdir.toString());
    }

    @Test
    void aSubmittedJobRunsToCompletedAndWritesItsFiles() throws IOException {
        String name = name();
        submitted = submit(JobTemplate.of(
                        name,
                        workdir.toString(),
                        JobCommand.of("sleep", "1"),
                        JobCommand.of("echo", "from slurm").withStreams(null, "result.txt", null))
                .withLimits(120L, 100_000L)
                .withText("echo \"job $SLURM_JOB_ID\"", "")
                .withEnvironment(Map.of("GREETING", "hi"), false));

        JobInfo first = slurm.poll(transport, List.of(submitted)).get(submitted);
        assertTrue(first.state().isActive(), first.toString());
        assertEquals(name, first.jobName());
        JobInfo done = waitUntil(submitted, JobState.DONE, Duration.ofSeconds(30));

        assertEquals("CD", done.rawState(), "listed as COMPLETED with --states=all: " + done);
        assertEquals("from slurm\n", Files.readString(workdir.resolve("result.txt")));
        assertEquals("job " + submitted + "\n", Files.readString(workdir.resolve(JobTemplate.DEFAULT_STDOUT)));
    }

    @Test
    void findByNameFindsTheJobAndCancelEndsIt() {
        String name = name();
        submitted = submit(JobTemplate.of(name, workdir.toString(), JobCommand.of("sleep", "60")));

        assertEquals(Optional.of(submitted), slurm.findByName(transport, name));
        assertEquals(Optional.empty(), slurm.findByName(transport, name()));
        slurm.cancel(transport, submitted);

        JobInfo cancelled = waitUntil(submitted, JobState.DONE, Duration.ofSeconds(30));
        assertEquals("CA", cancelled.rawState());
        assertEquals(Optional.empty(), slurm.findByName(transport, name), "a cancelled job is not found");
    }

    @Test
    void aHeldJobIsQueuedHeldAndSeveralJobsArePolledTogether() {
        String held = submit(JobTemplate.of(name(), workdir.toString(), JobCommand.of("true"))
                .withCustomSchedulerCommands("#SBATCH --hold"));
        submitted = held;
        Map<String, JobInfo> jobs = slurm.poll(transport, List.of(held, "999999"));
        assertEquals(JobState.QUEUED_HELD, jobs.get(held).state(), jobs.toString());
        assertEquals("JobHeldUser", jobs.get(held).annotation());
        assertEquals(JobInfo.missing("999999"), jobs.get("999999"));
    }

    @Test
    void aRefusedSubmissionSaysWhySlurmRefusedIt() {
        var job = JobTemplate.of(name(), workdir.toString(), JobCommand.of("true"))
                .withQueue("nosuch", null, null);
        var e = assertThrows(SchedulerException.class, () -> submit(job));
        assertTrue(e.getMessage().contains("Invalid partition name specified"), e.getMessage());
    }

    private String submit(JobTemplate job) {
        transport.write(
                workdir.resolve(SCRIPT).toString(), slurm.submitScript(job).getBytes(StandardCharsets.UTF_8));
        String id = slurm.submit(transport, workdir.toString(), SCRIPT);
        assertTrue(id.matches("[0-9]+"), id);
        return id;
    }

    private JobInfo waitUntil(String id, JobState state, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JobInfo info = slurm.poll(transport, List.of(id)).get(id);
            if (info.state() == state) {
                return info;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("job " + id + " is not " + state + " after " + timeout + ": " + info);
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }

    private static String name() {
        return "cairn-" + UUID.randomUUID() + "-1";
    }
}
