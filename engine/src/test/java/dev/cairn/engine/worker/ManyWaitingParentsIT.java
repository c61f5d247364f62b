package dev.cairn.engine.worker;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.Engine;
import dev.cairn.engine.testing.ChainRun;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.WorkerJvm;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * Far more waiting work chains than a worker has slots: a waiting process holds no task and
 * no slot, so one worker with 4 slots runs 500 parents that all wait for a child at once.
 */
class ManyWaitingParentsIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    static final int SLOTS = 4;

    @Test
    void fiveHundredWaitingParentsOnFourSlotsAllFinish() throws Exception {
        try (Engine engine = EngineFixture.withBroker(db, broker);
                WorkerJvm worker = WorkerJvm.start("single", db, broker, SLOTS)) {
            ChainRun run = ChainRun.of(500, 0, 0).submit(engine);
            long mostWaiting = 0;
            long deadline = System.nanoTime() + Duration.ofSeconds(100).toNanos();
            while (run.finishedRoots(db) < run.size() && System.nanoTime() < deadline) {
                mostWaiting = Math.max(
                        mostWaiting, EngineFixture.count(db, "SELECT count(*) FROM process WHERE state = 'waiting'"));
                Thread.sleep(100);
            }
            run.awaitAllFinished(db, Duration.ofSeconds(1), worker::tail);
            System.out.println("ManyWaitingParentsIT: at most " + mostWaiting + " parents waiting at once");
            assertTrue(
                    mostWaiting > 10 * SLOTS,
                    "far more parents waited at once than the worker has slots: " + mostWaiting);
            run.assertExactlyOnce(db);
            ChainRun.awaitOutboxEmpty(db, Duration.ofSeconds(30));
        }
    }
}
