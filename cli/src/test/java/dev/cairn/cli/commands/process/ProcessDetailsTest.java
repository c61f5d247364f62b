package dev.cairn.cli.commands.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.Terminal;

/**
 * {@code process show}'s one line of a calculation job's {@code last_job_info} (the fields the scheduler gave,
 * in order) and a job's files sent and retrieved.
 */
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

    private static final String JOB = """
            {"process": {"pk": 31, "uuid": "0190c1a2-5b1e-7c3d-9f00-2b8e4d6a1c55", "entry_point": "core.arithmetic.add",
                         "kind": "calcjob", "state": "finished", "exit_status": 0},
             "job": {"computer": "localhost", "job_id": "4101", "scheduler_state": "done"},
             "inputs": {}, "outputs": {}}""";

    private static String shown(JsonNode detail, JsonNode sent, JsonNode retrieved) {
        StringWriter text = new StringWriter();
        Output out = new Output(
                new PrintWriter(text), new PrintWriter(new StringWriter()), new Terminal(false, false, 100), false);
        ProcessDetails.print(detail, sent, retrieved, out);
        return text.toString().replace(System.lineSeparator(), "\n");
    }

    @Test
    void aJobShowsTheFilesItSentAndRetrievedWithTheirSizesFoldersLeftOut() {
        var sent = JSON.readTree("""
                {"node": "0190c1a2", "path": "", "entries": [
                 {"name": "_cairn_submit.sh", "path": "_cairn_submit.sh", "type": "file", "size": 412},
                 {"name": "in", "path": "in", "type": "directory"},
                 {"name": "aiida.in", "path": "in/aiida.in", "type": "file", "size": 3072}]}""");
        var retrieved = JSON.readTree("""
                {"node": "0190c1a3", "path": "", "entries": [
                 {"name": "aiida.out", "path": "aiida.out", "type": "file", "size": 20}]}""");
        String text = shown(JSON.readTree(JOB), sent, retrieved);
        assertTrue(
                text.contains("Files sent           Size\n_cairn_submit.sh    412 B\nin/aiida.in       3.0 KiB\n"),
                text);
        assertTrue(text.contains("Files retrieved  Size\naiida.out        20 B\n"), text);
        assertTrue(!text.contains("in/\n") && !text.contains("directory"), "no folder listed: " + text);
    }

    @Test
    void aJobNotYetSubmittedOrRetrievedSaysSo() {
        var none = JSON.readTree("""
                {"node": "0190c1a2", "path": "", "entries": []}""");
        String text = shown(JSON.readTree(JOB), none, null);
        assertTrue(text.contains("Files sent: none yet"), text);
        assertTrue(text.contains("Files retrieved: none yet"), text);
    }

    @Test
    void aProcessThatIsNoJobShowsNoFiles() {
        String text = shown(JSON.readTree(JOB.replace("\"job\": {", "\"other\": {")), null, null);
        assertTrue(!text.contains("Files"), text);
    }
}
