package dev.cairn.engine.scheduler;

import static dev.cairn.engine.scheduler.JobTemplateTest.NAME;
import static dev.cairn.engine.scheduler.JobTemplateTest.WORKDIR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;

class SlurmSchedulerTest {

    final SlurmScheduler slurm = new SlurmScheduler();

    /** A template with every option set, shared with the other schedulers' script tests. */
    static JobTemplate everything() {
        return JobTemplate.of(
                        NAME,
                        WORKDIR,
                        JobCommand.of("pw.x", "-nk", "2").withMpi().withStreams("aiida.in", "aiida.out", null),
                        JobCommand.of("echo", "it's done"))
                .withResources(new JobResources(2, 8, 4))
                .withLimits(90_061L, 2_000_000L)
                .withQueue("normal", "s1234", "high")
                .withText("module load qe/7.2", "echo finished")
                .withEnvironment(Map.of("OMP_PROC_BIND", "close", "GREETING", "hello world $HOME"), true);
    }

    @Test
    void theScriptHasEveryDirectiveBeforeTheFirstCommand() {
        String script = slurm.submitScript(everything().withCustomSchedulerCommands("#SBATCH --constraint=gpu"));
        assertEquals("""
            #!/bin/bash
            #SBATCH --job-name=cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-1
            #SBATCH --output=/scratch/alice/cairn/5f/0c/1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60/_scheduler-stdout.txt
            #SBATCH --error=/scratch/alice/cairn/5f/0c/1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60/_scheduler-stderr.txt
            #SBATCH --no-requeue
            #SBATCH --get-user-env
            #SBATCH --partition=normal
            #SBATCH --account=s1234
            #SBATCH --qos=high
            #SBATCH --nodes=2
            #SBATCH --ntasks-per-node=8
            #SBATCH --cpus-per-task=4
            #SBATCH --time=1-01:01:01
            #SBATCH --mem=2000000K
            #SBATCH --constraint=gpu

            cd /scratch/alice/cairn/5f/0c/1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60 || exit 1
            printf '%s\\n' "${SLURM_JOB_ID}" > _cairn_job_started.tmp && mv -f _cairn_job_started.tmp _cairn_job_started
            export GREETING='hello world $HOME'
            export OMP_PROC_BIND=close

            module load qe/7.2

            mpirun -np 16 pw.x -nk 2 < aiida.in > aiida.out
            echo 'it'"'"'s done'

            echo finished
            """, script);
    }

    @Test
    void aMinimalScriptLeavesQueueAndLimitsToSlurm() {
        String script = slurm.submitScript(JobTemplateTest.serial().withEnvironment(Map.of(), false));
        assertTrue(
                script.contains("#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=1\n#SBATCH --cpus-per-task=1\n\ncd "),
                script);
        for (String absent : List.of("--partition", "--account", "--qos", "--time", "--mem", "--get-user-env")) {
            assertTrue(!script.contains(absent), absent + " in\n" + script);
        }
        assertEquals(
                "#SBATCH --time=00:00:59",
                slurm.submitScript(JobTemplateTest.serial().withLimits(59L, null))
                        .lines()
                        .filter(l -> l.startsWith("#SBATCH --time"))
                        .findFirst()
                        .orElseThrow());
    }

    @Test
    void submitReadsTheJobIdThatSbatchPrints() {
        var t = new ScriptedTransport().reply(Recordings.read("slurm-22.05/sbatch-parsable.txt"));
        assertEquals("17", slurm.submit(t, WORKDIR, "_cairn_submit.sh"));
        assertEquals("sbatch --parsable _cairn_submit.sh", t.onlyCommand());
        assertEquals(WORKDIR, t.workdirs.getFirst());
        assertEquals(Optional.of("18"), SlurmScheduler.jobIdIn(Recordings.read("slurm-22.05/sbatch.txt")));
        assertEquals(Optional.of("4242"), SlurmScheduler.jobIdIn("4242;cluster2\n"));
    }

    @Test
    void aRefusedSubmissionQuotesSbatchStderr() {
        var t = new ScriptedTransport()
                .reply(1, "", Recordings.read("slurm-22.05/sbatch-invalid-partition.stderr.txt"));
        var e = assertThrows(SchedulerException.class, () -> slurm.submit(t, WORKDIR, "_cairn_submit.sh"));
        assertEquals(
                "slurm: 'sbatch --parsable _cairn_submit.sh' failed with exit code 1 in " + WORKDIR
                        + ": stderr: sbatch: error: invalid partition specified: nosuch\n"
                        + "sbatch: error: Batch job submission failed: Invalid partition name specified",
                e.getMessage());
        var garbled = new ScriptedTransport().reply("sbatch: warning: something\n");
        assertEquals(
                "slurm: cannot read a job id from 'sbatch --parsable _cairn_submit.sh': stdout: sbatch: warning:"
                        + " something",
                assertThrows(SchedulerException.class, () -> slurm.submit(garbled, WORKDIR, "_cairn_submit.sh"))
                        .getMessage());
    }

    @Test
    void onePollIsOneSqueueForAllJobsAndMapsEveryStateOfTheRecording() {
        var ids = List.of("11", "12", "13", "14", "15", "16", "1", "8", "9", "7", "999");
        var t = new ScriptedTransport().reply(Recordings.read("slurm-22.05/squeue-poll.txt"));
        Map<String, JobInfo> jobs = slurm.poll(t, ids);
        assertEquals(
                "squeue --noheader --states=all --jobs=11,12,13,14,15,16,1,8,9,7,999 --format='%i|%t|%M|%r|%u|%P|%D|%C|%l|%N|%j'",
                t.onlyCommand());
        assertEquals(ids, List.copyOf(jobs.keySet()));
        assertEquals(
                new JobInfo(
                        "11",
                        JobState.RUNNING,
                        "R",
                        NAME,
                        22L,
                        null,
                        null,
                        new JobInfo.Allocation("root", "debug", 1, 1, 7200L, List.of("vm"))),
                jobs.get("11"));
        assertEquals(JobState.SUSPENDED, jobs.get("12").state());
        assertEquals(JobState.RUNNING, jobs.get("13").state());
        assertEquals(
                new JobInfo(
                        "14",
                        JobState.QUEUED_HELD,
                        "PD",
                        "cairn-2b3c4d5e-6f70-4182-93a4-b5c6d7e8f9a0-1",
                        0L,
                        null,
                        "JobHeldUser",
                        new JobInfo.Allocation("root", "debug", 1, 1, 1800L, null)),
                jobs.get("14"));
        assertEquals(JobState.QUEUED_HELD, jobs.get("15").state(), "waits for a dependency");
        assertEquals(JobState.QUEUED, jobs.get("16").state(), "waits for resources");
        assertEquals("Resources", jobs.get("16").annotation());
        assertEquals(
                new JobInfo.Allocation("root", "debug", 1, 2, 300L, null),
                jobs.get("16").allocation());
        assertEquals(86_400L, jobs.get("12").allocation().requestedWallTimeSeconds());
        assertNull(jobs.get("13").allocation().requestedWallTimeSeconds(), "UNLIMITED: no limit");
        assertEquals(List.of("vm"), jobs.get("9").allocation().machineNames(), "where it ran");
        for (String done : List.of("1", "8", "9", "7")) {
            assertEquals(JobState.DONE, jobs.get(done).state(), done);
        }
        assertEquals("TimeLimit", jobs.get("9").annotation());
        assertEquals("NonZeroExitCode", jobs.get("8").annotation());
        assertEquals(JobInfo.missing("999"), jobs.get("999"), "never existed, so not listed: done");
    }

    @Test
    void aSlurmJobsLastJobInfoHoldsItsAllocationAsAPbsJobsDoes() {
        Map<String, Object> running = SlurmScheduler.parse(Recordings.read("slurm-22.05/squeue-poll.txt"))
                .get("11")
                .asAttribute();
        assertEquals(
                Map.ofEntries(
                        Map.entry("job_id", "11"),
                        Map.entry("job_state", "running"),
                        Map.entry("job_substate", "R"),
                        Map.entry("title", NAME),
                        Map.entry("job_owner", "root"),
                        Map.entry("queue_name", "debug"),
                        Map.entry("num_machines", 1L),
                        Map.entry("num_cpus", 1L),
                        Map.entry("wallclock_time_seconds", 22L),
                        Map.entry("requested_wallclock_time_seconds", 7200L),
                        Map.entry("allocated_machines", List.of(Map.of("name", "vm")))),
                running);
    }

    @Test
    void aNameWithTheSeparatorInItStaysWhole() {
        JobInfo job = SlurmScheduler.parse("21|R|0:01|None|bob|gpu|2|16|1-00:00:00|nid[0001-0002]|a|b|c\n")
                .get("21");
        assertEquals("a|b|c", job.jobName());
        assertEquals(
                new JobInfo.Allocation("bob", "gpu", 2, 16, 86_400L, List.of("nid0001", "nid0002")), job.allocation());
    }

    @Test
    void oneJobIsAskedForTwiceSoThatAFailedSqueueStaysAFailure() {
        var t = new ScriptedTransport().reply(Recordings.read("slurm-22.05/squeue-single-unknown-twice.txt"));
        assertEquals(Map.of("999", JobInfo.missing("999")), slurm.poll(t, List.of("999")));
        assertTrue(t.onlyCommand().contains("--jobs=999,999 "), t.onlyCommand());
        var failing =
                new ScriptedTransport().reply(1, "", Recordings.read("slurm-22.05/squeue-single-unknown.stderr.txt"));
        var e = assertThrows(SchedulerException.class, () -> slurm.poll(failing, List.of("999")));
        assertTrue(
                e.getMessage()
                        .endsWith("failed with exit code 1: stderr: slurm_load_jobs error: Invalid job id"
                                + " specified"),
                e.getMessage());
    }

    @Test
    void noJobsNoCommand() {
        assertEquals(Map.of(), slurm.poll(new ScriptedTransport(), List.of()));
    }

    @Test
    void aJobIdThatIsNotSlurmsNeverReachesTheShell() {
        var e = assertThrows(InvalidInputException.class, () -> slurm.poll(new ScriptedTransport(), List.of("1;rm")));
        assertEquals("slurm: '1;rm' is not a job id of this batch system", e.getMessage());
        assertThrows(InvalidInputException.class, () -> slurm.cancel(new ScriptedTransport(), "$(reboot)"));
    }

    @Test
    void everyCompactStateCodeHasAJobState() {
        assertEquals(JobState.UNDETERMINED, SlurmScheduler.state("XX", null), "an unknown code is never DONE");
        assertEquals(JobState.DONE, SlurmScheduler.state("OOM", null));
        assertEquals(JobState.RUNNING, SlurmScheduler.state("CG", null));
        assertEquals(JobState.QUEUED, SlurmScheduler.state("CF", null));
        assertEquals(JobState.QUEUED, SlurmScheduler.state("PD", null), "just submitted: reason None");
        assertEquals(
                JobState.QUEUED,
                SlurmScheduler.parse("20|PD|0:00|None|alice|debug|1|1|UNLIMITED||x\n")
                        .get("20")
                        .state());
        assertEquals(JobState.QUEUED_HELD, SlurmScheduler.state("PD", "BeginTime"));
        assertEquals(JobState.QUEUED_HELD, SlurmScheduler.state("PD", "JobHeldAdmin"));
        assertEquals(24, SlurmScheduler.STATES.size());
    }

    @Test
    void findByNameAsksSqueueForThisUsersJobsOfThatName() {
        var t = new ScriptedTransport().reply(Recordings.read("slurm-22.05/squeue-name.txt"));
        assertEquals(Optional.of("11"), slurm.findByName(t, NAME));
        assertEquals(
                "squeue --noheader --user=\"$(id -un)\" --name=" + NAME
                        + " --format='%i|%t|%M|%r|%u|%P|%D|%C|%l|%N|%j'",
                t.onlyCommand());
        var finished = new ScriptedTransport().reply("7|CA|3:09|None|root|debug|1|1|10:00|vm|" + NAME + "\n");
        assertEquals(Optional.empty(), slurm.findByName(finished, NAME), "a cancelled job does not count");
        var two = new ScriptedTransport()
                .reply("31|PD|0:00|Priority|root|debug|1|1|10:00||" + NAME + "\n30|R|0:04|None|root|debug|1|1|10:00|vm|"
                        + NAME + "\n");
        assertEquals(Optional.of("30"), slurm.findByName(two, NAME), "the first one submitted");
    }

    @Test
    void cancelIsScancel() {
        var t = new ScriptedTransport().reply("");
        slurm.cancel(t, "11");
        assertEquals("scancel 11", t.onlyCommand());
    }

    @Test
    void elapsedTimesInEveryFormSqueueAndPsPrint() {
        assertEquals(0L, WallTimes.parseElapsed("0:00"));
        assertEquals(75L, WallTimes.parseElapsed("1:15"));
        assertEquals(3723L, WallTimes.parseElapsed("1:02:03"));
        assertEquals(2 * 86_400L + 3723L, WallTimes.parseElapsed("2-01:02:03"));
        assertEquals(64 * 3600L + 26 * 60 + 16, WallTimes.parseElapsed("64:26:16"));
        assertNull(WallTimes.parseElapsed("INVALID"));
        assertEquals("2-00:00:00", WallTimes.slurm(172_800));
        assertEquals("48:00:00", WallTimes.pbs(172_800));
    }

    @Test
    void aLineWithoutTheFieldsIsAnError() {
        var e = assertThrows(SchedulerException.class, () -> SlurmScheduler.parse("11 R 0:01\n"));
        assertEquals(
                "slurm: squeue line '11 R 0:01' does not have the fields %i|%t|%M|%r|%u|%P|%D|%C|%l|%N|%j",
                e.getMessage());
    }
}
