package dev.cairn.engine.internal.calcjob;

import static dev.cairn.engine.testing.TestProcesses.BASH_ADD;
import static dev.cairn.engine.testing.TestProcesses.RESULT;
import static dev.cairn.engine.testing.TestProcesses.X;
import static dev.cairn.engine.testing.TestProcesses.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.engine.Engine;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.JobOptions;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.engine.shell.ShellJob;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.SlurmCluster;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ListData;
import dev.cairn.storage.graph.SinglefileData;
import dev.cairn.storage.testing.TestDatabase;

/** Calculation jobs, a shell job among them, through a real one-node SLURM cluster on this machine (local transport). */
class SlurmCalcJobIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @TempDir
    static Path tmp;

    static SlurmCluster cluster;
    static Engine engine;
    static InstalledCode bash;

    @BeforeAll
    static void open() throws Exception {
        cluster = SlurmCluster.start();
        engine = EngineFixture.localWithObjects(db, tmp.resolve("objects"));
        long computer = EngineFixture.localComputer(
                engine,
                "one-node",
                "core.slurm",
                tmp.resolve("work"),
                Map.of(
                        "minimum_job_poll_interval",
                        0.2,
                        "transport_params",
                        Map.of("environment", Map.of("SLURM_CONF", cluster.conf()))));
        bash = EngineFixture.bashOn(engine, computer);
    }

    @AfterAll
    static void close() throws Exception {
        engine.close();
        cluster.close();
    }

    @Test
    void aJobIsSubmittedWithItsOptionsPolledRetrievedAndParsed() throws Exception {
        ProcessResult r = engine.launcher()
                .run(
                        BASH_ADD,
                        Inputs.create()
                                .put(CalcJobDefinition.CODE, bash)
                                .put(X, new IntData(40))
                                .put(Y, new IntData(2))
                                .jobOptions(JobOptions.defaults()
                                        .withLimits(120L, null)
                                        .withCustomSchedulerCommands("#SBATCH --comment=cairn-it")
                                        .withText("echo \"slurm job $SLURM_JOB_ID\" > job.txt", "")));
        assertTrue(r.isFinishedOk(), r.node().processState() + " " + r.node().exception());
        assertEquals(42, r.get(RESULT).value());
        CalcJobNode node = (CalcJobNode) r.node();
        assertTrue(node.jobId().matches("\\d+"), "a SLURM job id: " + node.jobId());
        String script = Files.readString(Path.of(node.remoteWorkdir(), "_cairn_submit.sh"));
        assertTrue(script.contains("#SBATCH --time=00:02:00") && script.contains("#SBATCH --comment=cairn-it"), script);
        assertEquals(
                "slurm job " + node.jobId(),
                Files.readString(Path.of(node.remoteWorkdir(), "job.txt")).strip());
    }

    @Test
    void aShellJobRunsThroughSlurm() {
        ProcessResult r = engine.launcher()
                .run(
                        ShellJob.DEFINITION,
                        Inputs.create()
                                .put(CalcJobDefinition.CODE, bash)
                                .put(
                                        ShellJob.ARGUMENTS,
                                        new ListData(List.of("-c", "echo \"job $SLURM_JOB_ID\"; echo {x}")))
                                .put(ShellJob.NODES + ".x", new IntData(42)));
        assertTrue(r.isFinishedOk(), r.node().exitStatus() + " " + r.node().exitMessage());
        SinglefileData stdout = (SinglefileData) r.outputs().get("stdout");
        String printed = new String(engine.graph().readFile(stdout, stdout.filename()), StandardCharsets.UTF_8);
        assertEquals("job " + ((CalcJobNode) r.node()).jobId() + "\n42\n", printed);
    }
}
