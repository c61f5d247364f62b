package dev.cairn.engine.internal.calcjob;

import static dev.cairn.engine.testing.TestProcesses.BASH_ADD;
import static dev.cairn.engine.testing.TestProcesses.RESULT;
import static dev.cairn.engine.testing.TestProcesses.bashAdd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Arrays;
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
import dev.cairn.engine.testing.RunsAlone;
import dev.cairn.engine.testing.SlurmCluster;
import dev.cairn.engine.testing.TestEngine;
import dev.cairn.engine.testing.Waits;
import dev.cairn.engine.worker.Worker;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ListData;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.SinglefileData;
import dev.cairn.storage.testing.InsertHold;

/**
 * Calculation jobs, a shell job among them, through a real one-node SLURM cluster on this machine (local
 * transport), and jobs whose submit step lost its transaction after the job had ended, or after SLURM
 * forgot it before it started.
 */
@RunsAlone
class SlurmCalcJobIT {

    @RegisterExtension
    static final TestEngine fixture = TestEngine.localBesideBroker().withObjects();

    @TempDir
    static Path tmp;

    private static final Duration BOUND = Duration.ofSeconds(60);

    static SlurmCluster cluster;
    static InstalledCode bash;

    @BeforeAll
    static void open() throws Exception {
        cluster = SlurmCluster.start();
        bash = cluster.bash(fixture.engine(), "one-node", "core.slurm", tmp.resolve("work"));
    }

    @AfterAll
    static void close() throws Exception {
        cluster.close();
    }

    @Test
    void aJobIsSubmittedWithItsOptionsPolledRetrievedAndParsed() throws Exception {
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
        ProcessResult r = fixture.engine()
                .launcher()
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
        String printed =
                new String(fixture.engine().graph().readFile(stdout, stdout.filename()), StandardCharsets.UTF_8);
        assertEquals("job " + ((CalcJobNode) r.node()).jobId() + "\n42\n", printed);
    }

    @Test
    void aJobThatEndedBeforeItsSubmitStepRanAgainIsNotSubmittedAgain() throws Exception {
        Path runs = tmp.resolve("ended.runs");
        try (WorkerEngine w = WorkerEngine.start();
                InsertHold lost = InsertHold.on(fixture.db(), "job_watch")) {
            ProcessNode node = submitCountingRuns(w.engine(), runs, "");
            int step = lost.awaitHeld(BOUND, "a submit step held at its job_watch row, the last it writes");
            Waits.until(
                    BOUND, "the job to run", () -> EngineFixture.runsIn(runs).size() == 1);
            String jobId = EngineFixture.runsIn(runs).getFirst();
            Waits.until(BOUND, "SLURM job " + jobId + " to leave the queue", () -> !queued(jobId));
            lost.cut(step);
            assertFinished(w.engine(), node);
            assertEquals(
                    jobId, ((CalcJobNode) w.engine().graph().load(node.id())).jobId(), "the job that ran is taken");
            assertEquals(List.of(jobId), EngineFixture.runsIn(runs), "runs of the job's script");
        }
    }

    @Test
    void aJobSlurmForgotBeforeItStartedIsSubmittedAgainWithTheReasonReported() throws Exception {
        Path runs = tmp.resolve("forgotten.runs");
        try (WorkerEngine w = WorkerEngine.start();
                InsertHold lost = InsertHold.on(fixture.db(), "job_watch")) {
            // held by its begin time until the test lets it start
            ProcessNode node = submitCountingRuns(w.engine(), runs, "#SBATCH --begin=now+1hour");
            int step = lost.awaitHeld(BOUND, "a submit step held at its job_watch row, the last it writes");
            String first = slurm("squeue", "--noheader", "--states=PD", "--name=cairn-" + node.uuid(), "--format=%i")
                    .strip();
            assertTrue(first.matches("\\d+"), "the pending job: " + first);
            slurm("scancel", first);
            Waits.until(BOUND, "SLURM job " + first + " to leave the queue", () -> !queued(first));
            lost.cut(step);
            String[] second = {null};
            Waits.until(BOUND, "the job to be submitted again", () -> {
                CalcJobNode n = (CalcJobNode) w.engine().graph().load(node.id());
                second[0] = n.jobId();
                return "waiting".equals(n.processState()) && second[0] != null && !second[0].equals(first);
            });
            slurm("scontrol", "update", "JobId=" + second[0], "StartTime=now");
            assertFinished(w.engine(), node);
            assertEquals(List.of(second[0]), EngineFixture.runsIn(runs), "runs of the job's script");
            List<String> reports = EngineFixture.reports(fixture.db(), node.id());
            assertTrue(
                    reports.stream().anyMatch(r -> r.contains("the scheduler lost it, so it is submitted again")),
                    "the reason reported: " + reports);
        }
    }

    @Test
    void aJobsSchedulerStateGoesQueuedRunningDoneOnItsNode() throws Exception {
        Path release = tmp.resolve("release-node");
        Path go = tmp.resolve("go");
        // a job that takes the whole node keeps the next one pending for resources
        String blocker = slurm(
                        "sbatch",
                        "--parsable",
                        "--exclusive",
                        "--chdir=" + tmp,
                        "--output=/dev/null",
                        "--wrap=while [ ! -e " + release + " ]; do sleep 0.1; done")
                .strip();
        try (WorkerEngine w = WorkerEngine.start()) {
            Waits.until(
                    BOUND,
                    "the job taking the node to run",
                    () -> slurm("squeue", "--noheader", "--jobs=" + blocker, "--format=%T")
                            .strip()
                            .equals("RUNNING"));
            ProcessNode node = submitAdd(w.engine(), "", "while [ ! -e " + go + " ]; do sleep 0.1; done");
            awaitSchedulerState(w.engine(), node, "queued");
            // what squeue said of it, as AiiDA's JobInfo.get_dict() has it
            Map<?, ?> queued = lastJobInfo(w.engine(), node);
            String jobId = (String) ((CalcJobNode) w.engine().graph().load(node.id())).attribute("job_id");
            assertEquals(jobId, queued.get("job_id"), String.valueOf(queued));
            assertEquals("queued", queued.get("job_state"), String.valueOf(queued));
            assertEquals("PD", queued.get("job_substate"), String.valueOf(queued));
            assertEquals("Resources", queued.get("annotation"), "pending for the node the other job holds");
            assertTrue(((String) queued.get("title")).startsWith("cairn-"), "the job's name: " + queued);
            Files.createFile(release);
            awaitSchedulerState(w.engine(), node, "running");
            assertEquals("R", lastJobInfo(w.engine(), node).get("job_substate"));
            Files.createFile(go);
            assertFinished(w.engine(), node);
            CalcJobNode done = (CalcJobNode) w.engine().graph().load(node.id());
            assertEquals("done", done.attribute("scheduler_state"));
            assertEquals("done", lastJobInfo(w.engine(), node).get("job_state"));
            OffsetDateTime.parse((String) done.attribute("scheduler_lastchecktime"));
            assertEquals(
                    List.of(Arrays.asList(null, "queued"), List.of("queued", "running"), List.of("running", "done")),
                    EngineFixture.schedulerMoves(w.engine(), node.id()),
                    "each change an event that says it");
        } finally {
            Files.deleteIfExists(release);
            slurm("scancel", blocker);
        }
    }

    private static Map<?, ?> lastJobInfo(Engine withBroker, ProcessNode node) {
        return (Map<?, ?>) ((CalcJobNode) withBroker.graph().load(node.id())).attribute("last_job_info");
    }

    private static void awaitSchedulerState(Engine withBroker, ProcessNode node, String state)
            throws InterruptedException {
        Waits.until(
                BOUND,
                "the job's scheduler state to be " + state,
                () -> state.equals(((CalcJobNode) withBroker.graph().load(node.id())).attribute("scheduler_state")));
    }

    /**
     * An engine with the class's broker and a worker, for one test: the class's own engine runs its jobs in
     * the launching thread, and a worker's job poller alive beside it would take them over.
     */
    private record WorkerEngine(Engine engine, Worker worker) implements AutoCloseable {
        static WorkerEngine start() {
            Engine e = EngineFixture.withBroker(fixture.db(), fixture.broker(), fixture.objectStore());
            return new WorkerEngine(e, e.startWorker(Worker.Settings.defaults(2)));
        }

        @Override
        public void close() {
            worker.close();
            engine.close();
        }
    }

    private static ProcessNode submitCountingRuns(Engine withBroker, Path runs, String schedulerCommands) {
        return submitAdd(withBroker, schedulerCommands, "echo \"$SLURM_JOB_ID\" >> " + runs);
    }

    /** Submits 40 + 2 with {@code schedulerCommands} and {@code prepend} before the code in the job's script. */
    private static ProcessNode submitAdd(Engine withBroker, String schedulerCommands, String prepend) {
        return withBroker
                .launcher()
                .submit(
                        BASH_ADD,
                        bashAdd(
                                bash,
                                40,
                                2,
                                JobOptions.defaults()
                                        .withCustomSchedulerCommands(schedulerCommands)
                                        .withText(prepend, "")));
    }

    private static void assertFinished(Engine withBroker, ProcessNode node) throws InterruptedException {
        Waits.until(
                BOUND,
                "the process to end",
                () -> ((ProcessNode) withBroker.graph().load(node.id())).isSealed());
        CalcJobNode done = (CalcJobNode) withBroker.graph().load(node.id());
        assertEquals("finished", done.processState(), String.valueOf(done.exception()));
        assertEquals(0, done.exitStatus());
    }

    /** Whether SLURM still has the job pending, running or completing. */
    private static boolean queued(String jobId) {
        return !slurm("squeue", "--noheader", "--states=PD,R,CG,S", "--jobs=" + jobId, "--format=%i")
                .isBlank();
    }

    /** What a SLURM command printed; it must succeed. */
    private static String slurm(String... command) {
        try {
            ProcessBuilder b = new ProcessBuilder(command);
            b.environment().put("SLURM_CONF", cluster.conf());
            Process p = b.redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
