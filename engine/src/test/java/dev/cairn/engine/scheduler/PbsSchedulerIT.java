package dev.cairn.engine.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cairn.engine.testing.RunsAlone;

/**
 * The Torque flavour of the PBS scheduler against Slurm's Torque front end (Debian's
 * {@code slurm-wlm-torque}: perl {@code qsub}, {@code qstat}, {@code qdel} over sbatch, Slurm's job
 * list and scancel) on the one-node cluster of {@code scheduler/slurm-one-node.sh}, which loads Slurm's
 * PBS plugin so that a job has {@code PBS_JOBID}. This is as near to a PBS server as Debian comes; it is
 * not PBS Pro or a Torque server. Where the front end differs from Torque, this test says so:
 * <ul>
 *   <li>its qsub passes {@code -o} and {@code -e} to sbatch on the command line, which win over the
 *       script's {@code #PBS -o}/{@code -e}: the job's output goes to {@code <script>.o<id>} (Torque and
 *       PBS Pro write where the script says);
 *   <li>it has no {@code qselect}, so {@link PbsScheduler#findByName} takes its other path here, a
 *       {@code qstat -f} of every job filtered by owner and name;
 *   <li>its qstat shows a held job as queued ({@code Q}, not {@code H}), so held jobs are not tested here.
 * </ul>
 */
@RunsAlone
class PbsSchedulerIT extends SlurmClusterContract {

    final PbsScheduler torque = PbsScheduler.torque();

    /** Runs after the cluster started ({@link SlurmClusterContract#startCluster()}). */
    @BeforeAll
    static void theTorqueFrontEndIsInstalled() {
        assertTrue(
                transport
                        .exec("command -v qsub qstat qdel", null, Duration.ofSeconds(5))
                        .ok(),
                "Slurm's Torque front end is installed (slurm-wlm-torque, which .ci/services installs)");
        assertFalse(
                transport
                        .exec("command -v qselect", null, Duration.ofSeconds(5))
                        .ok(),
                "the front end has no qselect, so findByName's path without it is the one tested");
    }

    @Override
    protected Scheduler scheduler() {
        return torque;
    }

    /** Where the front end's qsub sends the job's output (see the class comment). */
    @Override
    protected String stdoutFile() {
        return SCRIPT + ".o" + submitted;
    }

    @Override
    protected String stderrFile() {
        return SCRIPT + ".e" + submitted;
    }

    @Test
    void aFinishedJobIsListedCompletedWithItsAllocationAndKnewItsPbsJobId() throws IOException {
        String name = name();
        submitted = submit(JobTemplate.of(name, workdir.toString(), JobCommand.of("true"))
                .withLimits(120L, null)
                .withText("echo \"job $PBS_JOBID in $PBS_O_WORKDIR\"", ""));

        assertEquals(
                name, torque.poll(transport, List.of(submitted)).get(submitted).jobName());
        JobInfo done = waitUntil(submitted, JobState.DONE);

        assertEquals("C", done.rawState(), "Torque's completed, kept in the listing: " + done);
        JobInfo.Allocation held = done.allocation();
        assertTrue(held.owner().startsWith(System.getProperty("user.name") + "@"), done.toString());
        assertEquals("debug", held.queue(), "slurm-one-node.sh's one partition");
        assertEquals(1, held.machines());
        assertEquals(120L, held.requestedWallTimeSeconds(), "#PBS -l walltime=00:02:00");
        assertEquals(1, held.machineNames().size(), done.toString());
        assertEquals("job " + submitted + " in " + workdir + "\n", read(stdoutFile()));
        assertEquals(submitted + "\n", read(Scheduler.STARTED_FILE), "the id qsub printed, from PBS_JOBID");
    }

    @Test
    void severalJobsArePolledTogetherAndOneTheServerNeverHadIsMissing() {
        String first = submit(JobTemplate.of(name(), workdir.toString(), JobCommand.of("sleep", "60")));
        submitted = first;
        String second = submit(JobTemplate.of(name(), workdir.toString(), JobCommand.of("true")));
        Map<String, JobInfo> jobs = torque.poll(transport, List.of(first, second, "999999"));
        assertTrue(jobs.get(first).state().isActive(), jobs.toString());
        assertEquals(second, jobs.get(second).jobId(), jobs.toString());
        assertTrue(jobs.get(second).jobName() != null, "listed, not missing: " + jobs);
        assertEquals(JobInfo.missing("999999"), jobs.get("999999"));
        torque.cancel(transport, first);
        assertEquals("C", waitUntil(first, JobState.DONE).rawState());
    }

    @Test
    void aRefusedSubmissionSaysWhySlurmRefusedIt() {
        var job = JobTemplate.of(name(), workdir.toString(), JobCommand.of("true"))
                .withQueue("nosuch", null, null);
        var e = assertThrows(SchedulerException.class, () -> submit(job));
        assertTrue(e.getMessage().startsWith("torque: 'qsub _cairn_submit.sh' failed"), e.getMessage());
        assertTrue(e.getMessage().contains("Invalid partition name specified"), e.getMessage());
    }
}
