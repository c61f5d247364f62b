package dev.cairn.engine.internal.calcjob;

import static dev.cairn.engine.testing.TestProcesses.BASH_ADD;
import static dev.cairn.engine.testing.TestProcesses.bashAdd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.engine.process.JobOptions;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.TestEngine;
import dev.cairn.engine.testing.TestSshServer;
import dev.cairn.engine.testing.Waits;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.testing.InsertHold;

/**
 * A job's submit step loses its transaction after it submitted (its database session ended before
 * the commit), then runs again, with the job ended, still running, or lost by its scheduler in
 * between: the job's script runs exactly once where it ran, and the process ends with its outputs.
 * Direct scheduler, local transport (and SSH to an in-process server for the ended case), a real worker on
 * PostgreSQL and RabbitMQ; each job's script
 * appends its pid to a file per job, its count of runs.
 */
class LostSubmitCommitIT {

    @RegisterExtension
    static final TestEngine fixture = TestEngine.withBroker().withObjects().withWorker(2);

    @TempDir
    static Path tmp;

    static InstalledCode bash;
    static InstalledCode losingBash;
    static TestSshServer sshd;
    static InstalledCode sshBash;

    private static final Duration BOUND = Duration.ofSeconds(60);

    @BeforeAll
    static void open() throws Exception {
        bash = EngineFixture.bashOnThisMachine(fixture.engine(), tmp.resolve("work"));
        // A computer whose first job dies as bash starts it, before its script's first line: the job was
        // submitted and never ran, as when a batch system loses a job.
        Path lose = tmp.resolve("lose.sh");
        Files.writeString(
                lose,
                "case $0 in *_cairn_submit.sh) if mkdir " + tmp.resolve("lost") + " 2> /dev/null; then echo $$ > "
                        + tmp.resolve("lost/pid") + "; exit 0; fi ;; esac\n");
        losingBash = EngineFixture.bashOn(
                fixture.engine(),
                EngineFixture.localComputer(
                        fixture.engine(),
                        "losing",
                        "core.direct",
                        tmp.resolve("losing-work"),
                        Map.of("transport_params", Map.of("environment", Map.of("BASH_ENV", lose.toString())))));
        sshd = TestSshServer.start(Files.createDirectories(tmp.resolve("keys")));
        sshBash = EngineFixture.bashOn(
                fixture.engine(),
                EngineFixture.sshComputer(fixture.engine(), sshd, tmp.resolve("ssh-work"), tmp.resolve("known_hosts"))
                        .id());
    }

    @AfterAll
    static void close() throws Exception {
        sshd.close();
    }

    @Test
    void aJobThatEndedBeforeTheStepRanAgainIsNotSubmittedAgain() throws Exception {
        assertEndedJobTaken(bash, tmp.resolve("ended.runs"));
    }

    @Test
    void aJobThatEndedIsTakenOverSsh() throws Exception {
        assertEndedJobTaken(sshBash, tmp.resolve("ssh-ended.runs"));
    }

    private static void assertEndedJobTaken(InstalledCode code, Path runs) throws Exception {
        try (InsertHold lost = InsertHold.on(fixture.db(), "job_watch")) {
            ProcessNode node = submit(code, runs, "");
            int step = lost.awaitHeld(BOUND, "a submit step held at its job_watch row, the last it writes");
            long pid = awaitRuns(runs, 1).getFirst();
            awaitEnd(pid);
            lost.cut(step);
            assertFinishedOnce(node, runs, "ended");
        }
    }

    @Test
    void aJobStillRunningWhenTheStepRanAgainIsTaken() throws Exception {
        Path runs = tmp.resolve("running.runs");
        Path go = tmp.resolve("running.go");
        new ProcessBuilder("mkfifo", go.toString()).start().waitFor();
        try (InsertHold lost = InsertHold.on(fixture.db(), "job_watch")) {
            // the job waits until the test writes to its pipe
            ProcessNode node = submit(bash, runs, "read -r _ < " + go);
            int step = lost.awaitHeld(BOUND, "a submit step held at its job_watch row, the last it writes");
            long pid = awaitRuns(runs, 1).getFirst();
            lost.cut(step);
            Waits.until(BOUND, "the step tried again to take job " + pid, () -> {
                CalcJobNode n = (CalcJobNode) fixture.engine().graph().load(node.id());
                return "waiting".equals(n.processState()) && String.valueOf(pid).equals(n.jobId());
            });
            Files.writeString(go, "go\n");
            assertFinishedOnce(node, runs, "still queued or running");
        }
    }

    @Test
    void aJobTheSchedulerLostIsSubmittedAgainWithTheReasonReported() throws Exception {
        Path runs = tmp.resolve("lost.runs");
        try (InsertHold lost = InsertHold.on(fixture.db(), "job_watch")) {
            ProcessNode node = submit(losingBash, runs, "");
            int step = lost.awaitHeld(BOUND, "a submit step held at its job_watch row, the last it writes");
            Path lostPid = tmp.resolve("lost/pid");
            Waits.until(BOUND, "the first job to be lost", () -> Files.exists(lostPid));
            long pid = Long.parseLong(Files.readString(lostPid).strip());
            awaitEnd(pid);
            assertTrue(!Files.exists(runs), "the lost job's script never ran");
            lost.cut(step);
            assertFinishedOnce(node, runs, "the scheduler lost it, so it is submitted again");
        }
    }

    private static ProcessNode submit(InstalledCode code, Path runs, String prepend) {
        return fixture.engine()
                .launcher()
                .submit(
                        BASH_ADD,
                        bashAdd(
                                code,
                                40,
                                2,
                                JobOptions.defaults().withText("echo $$ >> " + runs + "\n" + prepend, "")));
    }

    /** The pids the job's script wrote, once there are {@code n}. */
    private static List<Long> awaitRuns(Path runs, int n) throws Exception {
        Waits.until(BOUND, n + " run(s) of the job's script", () -> pids(runs).size() >= n);
        return pids(runs);
    }

    private static List<Long> pids(Path runs) {
        return EngineFixture.runsIn(runs).stream().map(Long::parseLong).toList();
    }

    private static void awaitEnd(long pid) throws InterruptedException {
        Waits.until(
                BOUND,
                "process " + pid + " to end",
                () -> !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }

    private static void assertFinishedOnce(ProcessNode node, Path runs, String reported) throws Exception {
        Waits.until(
                BOUND,
                "the process to end",
                () -> ((ProcessNode) fixture.engine().graph().load(node.id())).isSealed());
        CalcJobNode done = (CalcJobNode) fixture.engine().graph().load(node.id());
        assertEquals("finished", done.processState(), String.valueOf(done.exception()));
        assertEquals(0, done.exitStatus());
        assertEquals(1, pids(runs).size(), "runs of the job's script: " + pids(runs));
        assertEquals(42L, ((IntData) fixture.engine().graph().load(outputId(done, "result"))).value());
        List<String> reports = EngineFixture.reports(fixture.db(), done.id());
        assertTrue(
                reports.stream().anyMatch(r -> r.contains(reported)), "a report saying '" + reported + "': " + reports);
    }

    private static long outputId(ProcessNode node, String label) throws Exception {
        try (Connection c = fixture.db().connect();
                PreparedStatement s = c.prepareStatement(
                        "SELECT output_id FROM link WHERE input_id = ? AND label = ? AND type = 'create'")) {
            s.setLong(1, node.id());
            s.setString(2, label);
            try (ResultSet rs = s.executeQuery()) {
                assertTrue(rs.next(), "no output " + label);
                return rs.getLong(1);
            }
        }
    }
}
