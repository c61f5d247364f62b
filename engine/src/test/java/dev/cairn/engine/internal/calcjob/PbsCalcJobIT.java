package dev.cairn.engine.internal.calcjob;

import static dev.cairn.engine.testing.TestProcesses.BASH_ADD;
import static dev.cairn.engine.testing.TestProcesses.RESULT;
import static dev.cairn.engine.testing.TestProcesses.bashAdd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.engine.process.JobOptions;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.engine.testing.RunsAlone;
import dev.cairn.engine.testing.SlurmCluster;
import dev.cairn.engine.testing.TestEngine;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.InstalledCode;

/**
 * A calculation job on a {@code core.torque} computer, end to end through qsub and qstat: Slurm's Torque
 * front end on the one-node cluster of {@code scheduler/slurm-one-node.sh} (see {@code PbsSchedulerIT}
 * for how that front end differs from a Torque server).
 */
@RunsAlone
class PbsCalcJobIT {

    @RegisterExtension
    static final TestEngine fixture = TestEngine.localBesideBroker().withObjects();

    @TempDir
    static Path tmp;

    static SlurmCluster cluster;
    static InstalledCode bash;

    @BeforeAll
    static void open() throws Exception {
        cluster = SlurmCluster.start();
        bash = cluster.bash(fixture.engine(), "one-node-torque", "core.torque", tmp.resolve("work"));
    }

    @AfterAll
    static void close() throws Exception {
        cluster.close();
    }

    @Test
    void aJobIsSubmittedWithQsubPolledWithQstatRetrievedAndParsed() throws Exception {
        ProcessResult r = fixture.engine()
                .launcher()
                .run(
                        BASH_ADD,
                        bashAdd(
                                bash,
                                40,
                                2,
                                JobOptions.defaults()
                                        .withLimits(120L, null)
                                        .withCustomSchedulerCommands("#PBS -l cput=00:01:00")
                                        .withText("echo \"pbs job $PBS_JOBID\" > job.txt", "")));
        assertTrue(r.isFinishedOk(), r.node().processState() + " " + r.node().exception());
        assertEquals(42, r.get(RESULT).value());
        CalcJobNode node = (CalcJobNode) r.node();
        assertTrue(node.jobId().matches("\\d+"), "the id qsub printed: " + node.jobId());
        String script = Files.readString(Path.of(node.remoteWorkdir(), "_cairn_submit.sh"));
        assertTrue(
                script.contains("#PBS -l nodes=1:ppn=1")
                        && script.contains("#PBS -l walltime=00:02:00")
                        && script.contains("#PBS -l cput=00:01:00"),
                script);
        assertEquals(
                "pbs job " + node.jobId(),
                Files.readString(Path.of(node.remoteWorkdir(), "job.txt")).strip());
        assertEquals("done", node.attribute("scheduler_state"));
    }
}
