package dev.cairn.engine.internal.calcjob;

import static dev.cairn.engine.testing.TestProcesses.BASH_ADD;
import static dev.cairn.engine.testing.TestProcesses.BASH_SLEEP;
import static dev.cairn.engine.testing.TestProcesses.X;
import static dev.cairn.engine.testing.TestProcesses.bashAdd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.testing.TestEngine;
import dev.cairn.engine.testing.TestSshServer;
import dev.cairn.engine.testing.Waits;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.computers.ComputerSpec;
import dev.cairn.storage.graph.computers.ComputerStore;

/**
 * Calculation jobs on computers that fail: over SSH to a real SSH server (in this JVM) that
 * goes down while a job runs, and on a work directory the job cannot write. The job's step is
 * tried again with backoff, then the process is paused with a report; once the computer is
 * back, play finishes it.
 */
class ComputerFailuresIT {

    @RegisterExtension
    static final TestEngine fixture = TestEngine.withBroker().withObjects().withWorker(2);

    @TempDir
    static Path tmp;

    static TestSshServer sshd;

    /** Quick retries: two attempts, the first wait under 50 ms. */
    static final Map<String, Object> QUICK_RETRIES =
            Map.of("retry_attempts", 2, "retry_initial_interval", 0.05, "minimum_job_poll_interval", 0.1);

    @BeforeAll
    static void open() throws Exception {
        sshd = TestSshServer.start(Files.createDirectories(tmp.resolve("keys")));
    }

    @AfterAll
    static void close() throws Exception {
        sshd.close();
    }

    @Test
    void aJobRunsOverSshAndWaitsOutTheComputerGoingDown() throws Exception {
        Map<String, Object> settings = new HashMap<>(QUICK_RETRIES);
        settings.put("workdir", tmp.resolve("ssh-work").toString());
        settings.put("transport_params", sshd.transportParams(tmp.resolve("known_hosts")));
        long computer = new ComputerStore(fixture.engine().database())
                .create(new ComputerSpec("login", "127.0.0.1", "", "core.ssh", "core.direct", settings))
                .id();
        InstalledCode bash = fixture.engine().graph().store(new InstalledCode(computer, "/bin/bash"));

        int before = sshd.connections();
        for (int i = 0; i < 3; i++) {
            ProcessNode add = fixture.engine().launcher().submit(BASH_ADD, bashAdd(bash, 19 + i, 23));
            ProcessNode added = waitSealed(add);
            assertEquals("finished", added.processState(), String.valueOf(added.exception()));
            assertEquals(42 + i, result(added));
        }
        // each job submits, is polled every 0.1 s and retrieved: all over one kept connection
        assertEquals(1, sshd.connections() - before, "SSH connections made for three jobs");

        ProcessNode sleep = fixture.engine()
                .launcher()
                .submit(
                        BASH_SLEEP,
                        Inputs.create().put(CalcJobDefinition.CODE, bash).put(X, new IntData(2)));
        Waits.until(
                Duration.ofSeconds(30),
                "the job to be with its scheduler",
                () -> "waiting".equals(load(sleep).processState()) && ((CalcJobNode) load(sleep)).jobId() != null);
        sshd.stop();
        Waits.until(
                Duration.ofSeconds(30),
                "the process to be paused",
                () -> load(sleep).isPaused());
        assertTrue(
                load(sleep).processStatus().contains("asking the scheduler of login about the job failed 2 times"),
                load(sleep).processStatus());
        assertTrue(
                reports(sleep).stream().anyMatch(m -> m.contains("Play the process to try again")),
                reports(sleep).toString());

        sshd.restart();
        fixture.engine().control().play(sleep.id());
        ProcessNode slept = waitSealed(sleep);
        assertEquals("finished", slept.processState(), String.valueOf(slept.exception()));
        assertEquals(2, result(slept));
    }

    @Test
    void aWorkDirectoryThatCannotBeMadePausesTheJobUntilItCan() throws Exception {
        // a file where the work directory's parent should be: mkdir fails, whoever runs the test
        Path blocker = Files.writeString(tmp.resolve("blocked"), "not a directory");
        Map<String, Object> settings = new HashMap<>(QUICK_RETRIES);
        settings.put("workdir", blocker.resolve("work").toString());
        long computer = new ComputerStore(fixture.engine().database())
                .create(new ComputerSpec("blocked", "localhost", "", "core.local", "core.direct", settings))
                .id();
        InstalledCode bash = fixture.engine().graph().store(new InstalledCode(computer, "/bin/bash"));
        ProcessNode node = fixture.engine().launcher().submit(BASH_ADD, bashAdd(bash, 1, 2));
        Waits.until(
                Duration.ofSeconds(30),
                "the process to be paused",
                () -> load(node).isPaused());
        ProcessNode paused = load(node);
        assertEquals("created", paused.processState(), "the submit step never committed");
        assertTrue(paused.files().isEmpty(), "nor did the input files its attempts wrote");
        assertTrue(
                paused.processStatus().startsWith("Paused: submitting the job to blocked failed 2 times"),
                paused.processStatus());
        assertEquals(
                1,
                reports(node).stream()
                        .filter(m -> m.contains("failed (attempt 1 of 2)"))
                        .count(),
                "the first failure is logged with its retry");

        Files.delete(blocker);
        fixture.engine().control().play(node.id());
        ProcessNode done = waitSealed(node);
        assertEquals("finished", done.processState(), String.valueOf(done.exception()));
        assertEquals(3, result(done));
        assertEquals(
                List.of("_cairn_submit.sh", "aiida.in"),
                done.files().list(""),
                "one set, from the attempt that" + " committed");
    }

    private static ProcessNode load(ProcessNode node) {
        return (ProcessNode) fixture.engine().graph().load(node.id());
    }

    private static ProcessNode waitSealed(ProcessNode node) throws InterruptedException {
        Waits.until(
                Duration.ofSeconds(30),
                node.describe() + " to end",
                () -> load(node).isSealed());
        return load(node);
    }

    private static long result(ProcessNode node) {
        return fixture.engine().graph().outgoing(node).stream()
                .filter(l -> l.label().equals("result"))
                .map(l -> ((IntData) fixture.engine().graph().load(l.nodeId())).value())
                .findFirst()
                .orElseThrow();
    }

    /** The messages of the process's log records. */
    private static List<String> reports(ProcessNode node) throws Exception {
        List<String> messages = new ArrayList<>();
        try (var c = fixture.engine().database().connection();
                var s = c.prepareStatement("SELECT message FROM log WHERE node_id = ? ORDER BY id")) {
            s.setLong(1, node.id());
            try (var rs = s.executeQuery()) {
                while (rs.next()) {
                    messages.add(rs.getString(1));
                }
            }
        }
        return messages;
    }
}
