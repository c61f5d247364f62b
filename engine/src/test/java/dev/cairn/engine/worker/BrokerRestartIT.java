package dev.cairn.engine.worker;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.Engine;
import dev.cairn.engine.testing.ChainRun;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.RabbitCtl;
import dev.cairn.engine.testing.RunsAlone;
import dev.cairn.engine.testing.WorkerJvm;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * RabbitMQ stopped and started again in the middle of a run ({@code rabbitmqctl stop_app},
 * {@code start_app}): the worker's connection recovers, the tasks committed while the
 * broker was away reach it through the outbox, redelivered tasks are skipped, and every
 * process runs exactly once. Stops the local broker for a few seconds: every other user of
 * it sees the outage too.
 */
@RunsAlone
class BrokerRestartIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @Test
    void aBrokerRestartMidRunLosesNothingAndDoublesNothing() throws Exception {
        RabbitCtl.executable();
        try (Engine engine = EngineFixture.withBroker(db, broker);
                WorkerJvm worker = WorkerJvm.start("w", db, broker, 4)) {
            ChainRun run = ChainRun.of(200, 40, 4).submit(engine);
            run.awaitSteps(db, 0.3, Duration.ofSeconds(60), worker::tail);
            long stepsAtStop = ChainRun.stepsCommitted(db);
            long stopped = System.nanoTime();
            try {
                RabbitCtl.run("stop_app");
                Thread.sleep(3000);
            } finally {
                RabbitCtl.run("start_app");
            }
            long downMs = (System.nanoTime() - stopped) / 1_000_000;
            run.awaitAllFinished(db, Duration.ofSeconds(90), worker::tail);
            run.assertExactlyOnce(db);
            ChainRun.awaitOutboxEmpty(db, Duration.ofSeconds(30));
            System.out.println("BrokerRestartIT: broker down for " + downMs + " ms after " + stepsAtStop + " steps of "
                    + run.totalSteps() + "; " + worker.logLines("failed; the outbox relay will") + " failed publishes, "
                    + worker.logLines("left in the outbox") + " outbox relays logged");
        }
    }
}
