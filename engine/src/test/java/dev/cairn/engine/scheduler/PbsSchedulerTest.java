package dev.cairn.engine.scheduler;

import static dev.cairn.engine.scheduler.JobTemplateTest.NAME;
import static dev.cairn.engine.scheduler.JobTemplateTest.WORKDIR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;

class PbsSchedulerTest {

    final PbsScheduler pbs = new PbsScheduler();
    final PbsScheduler torque = PbsScheduler.torque();

    @Test
    void aPbsProScriptAsksForChunksWithSelect() {
        String script = pbs.submitScript(SlurmSchedulerTest.everything().withQueue("workq", "s1234", null));
        assertEquals("""
            #!/bin/bash
            #PBS -N cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-1
            #PBS -o /scratch/alice/cairn/5f/0c/1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60/_scheduler-stdout.txt
            #PBS -e /scratch/alice/cairn/5f/0c/1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60/_scheduler-stderr.txt
            #PBS -r n
            #PBS -V
            #PBS -q workq
            #PBS -A s1234
            #PBS -l select=2:ncpus=32:mpiprocs=8:ompthreads=4:mem=2000000kb
            #PBS -l walltime=25:01:01

            cd /scratch/alice/cairn/5f/0c/1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60 || exit 1
            printf '%s\\n' "${PBS_JOBID}" > _cairn_job_started.tmp && mv -f _cairn_job_started.tmp _cairn_job_started
            export GREETING='hello world $HOME'
            export OMP_PROC_BIND=close

            module load qe/7.2

            mpirun -np 16 pw.x -nk 2 < aiida.in > aiida.out
            echo 'it'"'"'s done'

            echo finished
            """, script);
    }

    @Test
    void aTorqueScriptAsksForNodesAndProcessorsPerNode() {
        String script = torque.submitScript(SlurmSchedulerTest.everything());
        assertTrue(script.contains("""
            #PBS -A s1234
            #PBS -l qos=high
            #PBS -l nodes=2:ppn=32
            #PBS -l mem=4000000kb
            #PBS -l walltime=25:01:01

            cd /scratch/"""), script);
        assertEquals("torque", torque.name());
    }

    @Test
    void pbsProHasNoQosAndSaysSo() {
        var e = assertThrows(InvalidInputException.class, () -> pbs.submitScript(SlurmSchedulerTest.everything()));
        assertEquals(
                "pbs: job " + NAME + " asks for QOS 'high', which PBS Professional does not have; choose a queue,"
                        + " or use custom scheduler commands",
                e.getMessage());
    }

    @Test
    void aSerialScriptAsksForOneChunkWithoutLimits() {
        String script = pbs.submitScript(JobTemplateTest.serial().withEnvironment(Map.of(), false));
        assertTrue(script.contains("#PBS -r n\n#PBS -l select=1:ncpus=1:mpiprocs=1\n\ncd "), script);
        assertTrue(!script.contains("#PBS -V") && !script.contains("walltime"), script);
    }

    @Test
    void submitReadsTheJobIdThatQsubPrints() {
        var t = new ScriptedTransport().reply(Recordings.read("pbspro-2022/qsub.txt"));
        assertEquals("4105.pbs01", pbs.submit(t, WORKDIR, "_cairn_submit.sh"));
        assertEquals("qsub _cairn_submit.sh", t.onlyCommand());
        var torqueQsub = new ScriptedTransport().reply(Recordings.read("torque-6.1/qsub.txt"));
        assertEquals("8125.torque01.example.org", torque.submit(torqueQsub, WORKDIR, "_cairn_submit.sh"));
        var refused =
                new ScriptedTransport().reply(170, "", Recordings.read("pbspro-2022/qsub-unknown-queue.stderr.txt"));
        var e = assertThrows(SchedulerException.class, () -> pbs.submit(refused, WORKDIR, "_cairn_submit.sh"));
        assertEquals(
                "pbs: 'qsub _cairn_submit.sh' failed with exit code 170 in " + WORKDIR
                        + ": stderr: qsub: Unknown queue",
                e.getMessage());
    }

    @Test
    void onePollIsOneQstatAndJobsItDoesNotKnowAreDone() {
        var ids = List.of("4099.pbs01", "4100.pbs01", "4101.pbs01", "4102.pbs01", "4103.pbs01");
        var t = new ScriptedTransport()
                .reply(
                        35,
                        Recordings.read("pbspro-2022/qstat-f-poll.txt"),
                        Recordings.read("pbspro-2022/qstat-f-poll.stderr.txt"));
        Map<String, JobInfo> jobs = pbs.poll(t, ids);
        assertEquals("qstat -f 4099.pbs01 4100.pbs01 4101.pbs01 4102.pbs01 4103.pbs01", t.onlyCommand());
        assertEquals(ids, List.copyOf(jobs.keySet()));
        assertEquals(JobInfo.missing("4099.pbs01"), jobs.get("4099.pbs01"));
        assertEquals(JobInfo.missing("4100.pbs01"), jobs.get("4100.pbs01"));
        assertEquals(
                new JobInfo(
                        "4101.pbs01",
                        JobState.RUNNING,
                        "R",
                        NAME,
                        3723L,
                        null,
                        "Job run at Tue Mar 12 at 09:15 on (node017:ncpus=4:mem=2097152kb)+(node018:ncpus=4:mem=2097152kb)",
                        new JobInfo.Allocation(
                                "alice@login01.cluster.example.org",
                                "workq",
                                2,
                                8,
                                7200L,
                                List.of("node017", "node018"))),
                jobs.get("4101.pbs01"));
        assertEquals(
                new JobInfo(
                        "4102.pbs01",
                        JobState.QUEUED,
                        "Q",
                        "cairn-1a2b3c4d-5e6f-4071-8293-a4b5c6d7e8f9-1",
                        null,
                        null,
                        "Not Running: Insufficient amount of resource: ncpus (R: 32 A: 12 T: 64)",
                        new JobInfo.Allocation("alice@login01.cluster.example.org", "workq", 1, 32, 86400L, null)),
                jobs.get("4102.pbs01"));
        assertEquals(JobState.QUEUED_HELD, jobs.get("4103.pbs01").state());
    }

    @Test
    void aJobIsKeptAsAiidasJobInfoDictWithTheFieldsTheListingGave() {
        var t = new ScriptedTransport().reply(Recordings.read("pbspro-2022/qstat-f-poll.txt"));
        Map<String, Object> running =
                pbs.poll(t, List.of("4101.pbs01")).get("4101.pbs01").asAttribute();
        assertEquals(
                List.of(
                        "job_id",
                        "job_state",
                        "job_substate",
                        "title",
                        "annotation",
                        "job_owner",
                        "queue_name",
                        "num_machines",
                        "num_cpus",
                        "wallclock_time_seconds",
                        "requested_wallclock_time_seconds",
                        "allocated_machines"),
                List.copyOf(running.keySet()));
        assertEquals("running", running.get("job_state"));
        assertEquals("R", running.get("job_substate"));
        assertEquals(2L, running.get("num_machines"));
        assertEquals(7200L, running.get("requested_wallclock_time_seconds"));
        assertEquals(List.of(Map.of("name", "node017"), Map.of("name", "node018")), running.get("allocated_machines"));
        assertEquals(
                Map.of("job_id", "4099.pbs01", "job_state", "done", "annotation", "not in the scheduler's listing"),
                JobInfo.missing("4099.pbs01").asAttribute());
    }

    @Test
    void wrappedAttributesAreJoinedBack() {
        var job = QstatListing.parse(Recordings.read("pbspro-2022/qstat-f-poll.txt"))
                .getFirst();
        assertEquals(
                "login01.cluster.example.org:/scratch/alice/cairn/5f/0c/1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60"
                        + "/_scheduler-stdout.txt",
                job.get("Output_Path"));
        assertTrue(
                job.get("Variable_List")
                        .contains(",PBS_O_WORKDIR=/scratch/alice/cairn/5f/0c/1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60,"),
                job.get("Variable_List"));
        assertEquals("2:ncpus=4:mpiprocs=4:mem=2097152kb", job.get("resource_list.select"));
    }

    @Test
    void aQstatThatFailsForAnotherReasonIsAFailureNotDoneJobs() {
        var t = new ScriptedTransport().reply(162, "", Recordings.read("pbspro-2022/qstat-no-server.stderr.txt"));
        var e = assertThrows(SchedulerException.class, () -> pbs.poll(t, List.of("4101.pbs01")));
        assertEquals(
                "pbs: 'qstat -f 4101.pbs01' failed with exit code 162: stderr: Connection refused\n"
                        + "qstat: cannot connect to server pbs01 (errno=15010)",
                e.getMessage());
        var silent = new ScriptedTransport().reply(1, "", "");
        assertThrows(SchedulerException.class, () -> pbs.poll(silent, List.of("4101.pbs01")));
    }

    @Test
    void aJobIdIsFoundUnderTheServersLongerOrShorterName() {
        var t = new ScriptedTransport().reply(Recordings.read("torque-6.1/qstat-f-poll.txt"));
        Map<String, JobInfo> jobs = torque.poll(t, List.of("8123.torque01", "8124"));
        assertEquals(
                new JobInfo(
                        "8123.torque01",
                        JobState.DONE,
                        "C",
                        "cairn-3c4d5e6f-7081-4293-a4b5-c6d7e8f9a0b1-2",
                        317L,
                        0,
                        null,
                        new JobInfo.Allocation("bob@torque01.example.org", "batch", 1, null, 3600L, List.of("n05"))),
                jobs.get("8123.torque01"),
                "Torque keeps completed jobs with their exit status");
        assertEquals(JobState.RUNNING, jobs.get("8124").state());
        assertEquals(190L, jobs.get("8124").wallTimeSeconds());
        var other = new ScriptedTransport().reply(Recordings.read("torque-6.1/qstat-f-poll.txt"));
        assertEquals(JobState.DONE, torque.poll(other, List.of("81")).get("81").state(), "81 is not 8123");
    }

    @Test
    void slurmsTorqueFrontEndIsReadAsTorque() {
        var qsub = new ScriptedTransport().reply(Recordings.read("slurm-torque-22.05/qsub.txt"));
        assertEquals("54", torque.submit(qsub, WORKDIR, "_cairn_submit.sh"));
        // Attributes indented with a TAB; 999 unknown, which this qstat does not mention.
        var t = new ScriptedTransport().reply(Recordings.read("slurm-torque-22.05/qstat-f-poll.txt"));
        Map<String, JobInfo> jobs = torque.poll(t, List.of("53", "54", "999"));
        assertEquals(
                new JobInfo(
                        "54",
                        JobState.RUNNING,
                        "R",
                        NAME,
                        null,
                        null,
                        null,
                        new JobInfo.Allocation("root@localhost", "debug", 1, 1, 120L, List.of("vm"))),
                jobs.get("54"));
        assertEquals("C", jobs.get("53").rawState());
        assertEquals(JobState.DONE, jobs.get("53").state());
        assertEquals(JobInfo.missing("999"), jobs.get("999"));
    }

    @Test
    void aQstatThatKnowsNoneOfTheJobsExits153WithoutAWordAndTheyAreDone() {
        var t = new ScriptedTransport().reply(153, "", "");
        assertEquals(Map.of("999", JobInfo.missing("999")), torque.poll(t, List.of("999")));
    }

    @Test
    void aRefusalQsubPrintsOnStdoutIsQuoted() {
        var refused =
                new ScriptedTransport().reply(1, Recordings.read("slurm-torque-22.05/qsub-unknown-queue.txt"), "");
        var e = assertThrows(SchedulerException.class, () -> torque.submit(refused, WORKDIR, "_cairn_submit.sh"));
        assertTrue(e.getMessage().contains("Invalid partition name specified"), e.getMessage());
    }

    @Test
    void findByNameWithoutQselectReadsTheFrontEndsListing() {
        var t = new ScriptedTransport().reply("root\n" + Recordings.read("slurm-torque-22.05/qstat-f-poll.txt"));
        assertEquals(Optional.of("54"), torque.findByName(t, NAME));
        var completed =
                new ScriptedTransport().reply("root\n" + Recordings.read("slurm-torque-22.05/qstat-f-poll.txt"));
        assertEquals(
                Optional.empty(),
                torque.findByName(completed, "cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-2"),
                "53 completed");
    }

    @Test
    void aTabOnTheFirstAttributeOfPbsOwnListingStaysAContinuationLaterOn() {
        // PBS wraps long values onto lines starting with a TAB, which may hold '=' themselves.
        var jobs = QstatListing.parse(
                "Job Id: 1.s\n    Variable_List = PBS_O_HOME=/home/a,\n\tPBS_O_WORKDIR=/w\n" + "    job_state = R\n");
        assertEquals("PBS_O_HOME=/home/a,PBS_O_WORKDIR=/w", jobs.getFirst().get("Variable_List"));
        assertEquals("R", jobs.getFirst().get("job_state"));
    }

    @Test
    void everyStateLetterHasAJobState() {
        assertEquals(13, PbsScheduler.STATES.size());
        assertEquals(JobState.RUNNING, PbsScheduler.STATES.get("E"));
        assertEquals(JobState.UNDETERMINED, PbsScheduler.STATES.get("M"));
        assertEquals(JobState.QUEUED, PbsScheduler.STATES.get("W"));
    }

    @Test
    void findByNameSelectsThisUsersJobsByNameAndReadsTheirState() {
        var t = new ScriptedTransport().reply("alice\n" + Recordings.read("pbspro-2022/qstat-f-poll.txt"));
        assertEquals(Optional.of("4101.pbs01"), pbs.findByName(t, NAME));
        assertEquals(
                "id -un || exit 1; if command -v qselect >/dev/null 2>&1; then ids=$(qselect -u \"$(id -un)\" -N "
                        + NAME + ") || exit 1; [ -z \"$ids\" ] || qstat -f $ids; else qstat -f; fi",
                t.onlyCommand());
        var completed = new ScriptedTransport().reply("bob\n" + Recordings.read("torque-6.1/qstat-f-poll.txt"));
        assertEquals(
                Optional.empty(),
                torque.findByName(completed, "cairn-3c4d5e6f-7081-4293-a4b5-c6d7e8f9a0b1-2"),
                "a completed job does not count");
        assertEquals(Optional.empty(), pbs.findByName(new ScriptedTransport().reply("alice\n"), NAME));
    }

    @Test
    void findByNameTakesOnlyTheUsersOwnJobWhereQstatListedEveryone() {
        // Without qselect the listing is every job the server shows: another user's job of the same name is not ours.
        var t = new ScriptedTransport().reply("bob\n" + Recordings.read("pbspro-2022/qstat-f-poll.txt"));
        assertEquals(Optional.empty(), pbs.findByName(t, NAME));
        var e = assertThrows(SchedulerException.class, () -> pbs.findByName(new ScriptedTransport().reply(""), NAME));
        assertTrue(e.getMessage().contains("printed no user name before its jobs"), e.getMessage());
    }

    @Test
    void cancelIsQdel() {
        var t = new ScriptedTransport().reply("");
        pbs.cancel(t, "4101.pbs01");
        assertEquals("qdel 4101.pbs01", t.onlyCommand());
        assertThrows(InvalidInputException.class, () -> pbs.cancel(t, "4101 4102"));
    }

    @Test
    void textBeforeTheFirstJobIsAnError() {
        var e = assertThrows(SchedulerException.class, () -> QstatListing.parse("    job_state = R\n"));
        assertEquals("pbs: qstat -f printed '    job_state = R' before the first 'Job Id:' line", e.getMessage());
    }
}
