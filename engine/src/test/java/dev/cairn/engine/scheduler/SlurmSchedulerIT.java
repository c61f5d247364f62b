package dev.cairn.engine.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cairn.engine.testing.RunsAlone;

/**
 * The SLURM scheduler against a real one-node cluster on this machine, started (and installed from
 * Debian's packages if missing) by {@code scheduler/slurm-one-node.sh}. It needs root; it fails, and
 * says why, where the cluster cannot be had.
 */
@RunsAlone
class SlurmSchedulerIT extends SlurmClusterContract {

    final SlurmScheduler slurm = new SlurmScheduler();

    @Override
    protected Scheduler scheduler() {
        return slurm;
    }

    @Test
    void aFinishedJobIsListedCompletedAndSawItsJobId() throws IOException {
        String name = name();
        submitted = submit(JobTemplate.of(name, workdir.toString(), JobCommand.of("true"))
                .withLimits(120L, 100_000L)
                .withText("echo \"job $SLURM_JOB_ID\"", ""));

        assertEquals(
                name, slurm.poll(transport, List.of(submitted)).get(submitted).jobName());
        JobInfo done = waitUntil(submitted, JobState.DONE);

        assertEquals("CD", done.rawState(), "listed as COMPLETED with --states=all: " + done);
        JobInfo.Allocation held = done.allocation();
        assertEquals(System.getProperty("user.name"), held.owner(), done.toString());
        assertEquals("debug", held.queue(), "slurm-one-node.sh's one partition");
        assertEquals(1, held.machines());
        assertTrue(held.cpus() >= 1, done.toString());
        assertEquals(120L, held.requestedWallTimeSeconds(), "--time=00:02:00");
        assertEquals(1, held.machineNames().size(), done.toString());
        assertEquals("job " + submitted + "\n", read(JobTemplate.DEFAULT_STDOUT));
    }

    @Test
    void aCancelledJobIsListedCancelled() {
        submitted = submit(JobTemplate.of(name(), workdir.toString(), JobCommand.of("sleep", "60")));
        slurm.cancel(transport, submitted);
        assertEquals("CA", waitUntil(submitted, JobState.DONE).rawState());
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
}
