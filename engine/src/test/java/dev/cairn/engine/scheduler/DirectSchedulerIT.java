package dev.cairn.engine.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.cairn.engine.transport.LocalTransport;
import dev.cairn.engine.transport.Transport;

/** The direct scheduler against real processes on this machine. */
class DirectSchedulerIT extends SchedulerContract {

    final DirectScheduler direct = new DirectScheduler();
    static LocalTransport transport;

    @BeforeAll
    static void open() {
        transport = new LocalTransport();
    }

    @AfterAll
    static void close() {
        transport.close();
    }

    @Override
    protected Scheduler scheduler() {
        return direct;
    }

    @Override
    protected Transport transport() {
        return transport;
    }

    /** Above the largest pid Linux gives (2^22). */
    @Override
    protected String neverSubmitted() {
        return "999999999";
    }

    @Test
    void aJobRunsWhileItsCommandsDo() {
        submitted = submit(JobTemplate.of(name(), workdir.toString(), JobCommand.of("sleep", "1")));
        assertEquals(
                JobState.RUNNING,
                direct.poll(transport, List.of(submitted)).get(submitted).state(),
                "the job sleeps for a second");
        assertEquals(JobState.DONE, waitUntil(submitted, JobState.DONE).state());
    }

    @Test
    void cancelEndsTheJobAndWhatItStarted() {
        // An odd duration, so that this sleep is known among the machine's processes.
        String seconds = Integer.toString(40 + (int) (Math.random() * 50));
        submitted = submit(JobTemplate.of(name(), workdir.toString(), JobCommand.of("sleep", seconds)));
        waitForProcess("sleep " + seconds);

        direct.cancel(transport, submitted);

        assertEquals(JobState.DONE, waitUntil(submitted, JobState.DONE).state());
        assertEquals(
                "",
                transport
                        .exec("ps -eo args= | grep -x 'sleep " + seconds + "' || true", null, Duration.ofSeconds(5))
                        .stdout(),
                "the job's child went with it");
    }

    private void waitForProcess(String args) {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        String command = "ps -eo args= | grep -x '" + args + "'";
        while (!transport.exec(command, null, Duration.ofSeconds(5)).ok()) {
            assertTrue(System.nanoTime() < deadline, "no process '" + args + "' after 5 s");
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
