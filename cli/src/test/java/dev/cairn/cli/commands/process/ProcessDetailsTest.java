package dev.cairn.cli.commands.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** {@code process show}'s one line of a calculation job's {@code last_job_info}: the fields the scheduler gave, in order. */
class ProcessDetailsTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void aPbsJobShowsItsTimesMachinesCoresAndQueue() {
        // what the engine writes for the running job of the PBS Pro recording (PbsSchedulerTest)
        var info = JSON.readTree("""
                {"job_id": "4101.pbs01", "job_state": "running", "job_substate": "R", "title": "cairn-x-1",
                 "annotation": "Job run at Tue Mar 12", "job_owner": "alice@login01", "queue_name": "workq",
                 "num_machines": 2, "num_cpus": 8, "wallclock_time_seconds": 3723,
                 "requested_wallclock_time_seconds": 7200,
                 "allocated_machines": [{"name": "node017"}, {"name": "node018"}]}""");
        assertEquals(
                "substate R, ran 1:02:03 of 2:00:00, 2 machines (node017, node018), 8 cpus, queue workq,"
                        + " Job run at Tue Mar 12",
                ProcessDetails.jobInfo(info));
    }

    @Test
    void aSlurmJobShowsItsTimesMachinesCoresAndPartition() {
        // what the engine writes for the running job 11 of the SLURM recording (SlurmSchedulerTest)
        var info = JSON.readTree("""
                {"job_id": "11", "job_state": "running", "job_substate": "R",
                 "title": "cairn-5f0c1e0e-8a7e-4d0c-9a43-1b2c3d4e5f60-1", "job_owner": "root", "queue_name": "debug",
                 "num_machines": 1, "num_cpus": 1, "wallclock_time_seconds": 22,
                 "requested_wallclock_time_seconds": 7200, "allocated_machines": [{"name": "vm"}]}""");
        assertEquals(
                "substate R, ran 0:22 of 2:00:00, 1 machine (vm), 1 cpu, queue debug", ProcessDetails.jobInfo(info));
    }

    @Test
    void aJobTheListingNoLongerShowsSaysSo() {
        var info = JSON.readTree("""
                {"job_id": "4211", "job_state": "done", "annotation": "not in the scheduler's listing"}""");
        assertEquals("not in the scheduler's listing", ProcessDetails.jobInfo(info));
        var pending = JSON.readTree("""
                {"job_id": "16", "job_state": "queued", "job_substate": "PD", "annotation": "Resources",
                 "wallclock_time_seconds": 0}""");
        assertEquals("substate PD, ran 0:00, Resources", ProcessDetails.jobInfo(pending));
    }
}
