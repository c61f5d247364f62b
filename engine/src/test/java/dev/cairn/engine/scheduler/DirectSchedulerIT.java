package dev.cairn.engine.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.cairn.engine.transport.LocalTransport;

/** The direct scheduler against real processes on this machine. */
class DirectSchedulerIT {

    static final String SCRIPT = "_cairn_submit.sh";

    final DirectScheduler direct = new DirectScheduler();
    final LocalTransport transport = new LocalTransport();
    Path workdir;
    String started;

    @BeforeEach
    void workdir() throws IOException {
        workdir = Files.createTempDirectory("cairn-direct-");
    }

    @AfterEach
    void cleanUp() {
        // A job a failed test left running must not outlive it.
        if (started != null
                && direct.poll(transport, List.of(started)).get(started).state().isActive()) {
            direct.cancel(transport, started);
        }
        transport.remove(workdir.toString());
        transport.close();
    }

    @Test
    void aJobRunsToTheEndAndLeavesItsFiles() throws IOException {
        JobTemplate job = JobTemplate.of(
                        name(),
                        workdir.toString(),
                        JobCommand.of("sleep", "1"),
                        JobCommand.of("echo", "slept").withStreams(null, "result.txt", null))
                .withText("echo starting", "echo \"$GREETING\" > greeting.txt; echo oops >&2")
                .withEnvironment(Map.of("GREETING", "hello $world"), true);
        started = submit(job);

        assertEquals(
                JobState.RUNNING,
                direct.poll(transport, List.of(started)).get(started).state(),
                "the job sleeps for a second");
        JobInfo done = waitUntilDone(started, Duration.ofSeconds(10));

        assertEquals(JobState.DONE, done.state());
        assertEquals("slept\n", read("result.txt"));
        assertEquals("hello $world\n", read("greeting.txt"), "exported, with no expansion");
        assertEquals("starting\n", read(JobTemplate.DEFAULT_STDOUT));
        assertEquals("oops\n", read(JobTemplate.DEFAULT_STDERR));
    }

    @Test
    void findByNameFindsTheRunningJobAndOnlyIt() {
        String name = name();
        started = submit(JobTemplate.of(name, workdir.toString(), JobCommand.of("sleep", "30")));

        assertEquals(Optional.of(started), direct.findByName(transport, name));
        assertEquals(Optional.empty(), direct.findByName(transport, name() + "-other"));
        assertEquals(
                Optional.empty(),
                direct.findByName(transport, name.substring(0, name.length() - 2)),
                "a prefix is not the name");
    }

    @Test
    void cancelEndsTheJobAndWhatItStarted() {
        // An odd duration, so that this sleep is known among the machine's processes.
        String seconds = Integer.toString(40 + (int) (Math.random() * 50));
        String name = name();
        started = submit(JobTemplate.of(
                name, workdir.toString(), JobCommand.of("sleep", seconds), JobCommand.of("touch", "not-reached")));
        waitForProcess("sleep " + seconds);

        direct.cancel(transport, started);

        assertEquals(
                JobState.DONE, waitUntilDone(started, Duration.ofSeconds(5)).state());
        assertEquals(
                "",
                transport
                        .exec("ps -eo args= | grep -x 'sleep " + seconds + "' || true", null, Duration.ofSeconds(5))
                        .stdout(),
                "the job's child went with it");
        assertEquals(Optional.empty(), direct.findByName(transport, name));
        assertTrue(!Files.exists(workdir.resolve("not-reached")));
    }

    private String submit(JobTemplate job) {
        transport.write(
                workdir.resolve(SCRIPT).toString(), direct.submitScript(job).getBytes(StandardCharsets.UTF_8));
        String pid = direct.submit(transport, workdir.toString(), SCRIPT);
        assertTrue(pid.matches("[0-9]+"), pid);
        return pid;
    }

    private JobInfo waitUntilDone(String id, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            JobInfo info = direct.poll(transport, List.of(id)).get(id);
            if (info.state() == JobState.DONE || System.nanoTime() > deadline) {
                return info;
            }
            pause();
        }
    }

    private void waitForProcess(String args) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        String command = "ps -eo args= | grep -x '" + args + "'";
        while (!transport.exec(command, null, Duration.ofSeconds(5)).ok()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no process '" + args + "' after 5 s");
            } else {
                pause();
            }
        }
    }

    private String read(String file) throws IOException {
        return Files.readString(workdir.resolve(file));
    }

    private static String name() {
        return "cairn-" + UUID.randomUUID() + "-1";
    }

    private static void pause() {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
