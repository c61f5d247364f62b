package dev.cairn.engine.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.BrokerOptions;
import dev.cairn.engine.Engine;
import dev.cairn.engine.testing.ChainRun;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * Tasks published while the task queue is not on the broker (deleted by an operator, or never
 * declared on a new virtual host): the broker cannot route them, and they must still run, within
 * seconds and exactly once, not after the relay's sweep of forgotten processes (ten minutes).
 * Each test has a prefix of its own, so a queue of its own on the class's virtual host, and a
 * database of its own, since {@link ChainRun} counts the whole graph.
 */
class MissingTaskQueueIT {

    /** Far below the sweep's ten minutes, wide enough for a loaded CI machine. */
    private static final Duration IN_SECONDS = Duration.ofSeconds(60);

    @RegisterExtension
    static final TestDatabase gone = new TestDatabase();

    @RegisterExtension
    static final TestDatabase deleted = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @Test
    void tasksSubmittedWhileTheQueueIsGoneRunOnceWhenAWorkerComes() throws Exception {
        try (Engine api = engine(gone, "gone", BrokerOptions.defaults())) {
            deleteQueue("gone.tasks");
            ChainRun run = ChainRun.of(12, 4, 3).submit(api);
            try (Engine host = engine(gone, "gone", BrokerOptions.defaults());
                    Worker worker = host.startWorker(Worker.Settings.defaults(4))) {
                long started = System.nanoTime();
                run.awaitAllFinished(gone, IN_SECONDS, () -> "worker " + worker);
                report("gone", run, worker, started);
                ChainRun.awaitOutboxEmpty(gone, IN_SECONDS);
                run.assertExactlyOnce(gone);
                assertEquals(run.totalSteps(), worker.stepsRun(), "tasks delivered (none twice)");
            }
        }
    }

    @Test
    void aQuorumQueueDeletedUnderRunningWorkersIsDeclaredAgainAndConsumed() throws Exception {
        BrokerOptions quorum =
                new BrokerOptions(BrokerOptions.DEFAULT_HEARTBEAT, BrokerOptions.TaskQueue.QUORUM, List.of());
        try (Engine api = engine(deleted, "deleted", quorum);
                Engine host = engine(deleted, "deleted", quorum);
                Worker worker = host.startWorker(Worker.Settings.defaults(4))) {
            deleteQueue("deleted.tasks"); // the broker cancels the worker's consumer
            long started = System.nanoTime();
            ChainRun run = ChainRun.of(12, 4, 3).submit(api);
            run.awaitAllFinished(deleted, IN_SECONDS, () -> "worker " + worker);
            report("deleted", run, worker, started);
            ChainRun.awaitOutboxEmpty(deleted, IN_SECONDS);
            run.assertExactlyOnce(deleted);
            assertEquals(run.totalSteps(), worker.stepsRun(), "tasks delivered (none twice)");
        }
    }

    private static void report(String queue, ChainRun run, Worker worker, long started) {
        System.out.printf(
                "MissingTaskQueueIT: %s: %d root chains (%d steps) finished %d ms after %s; %d tasks delivered%n",
                queue,
                run.size(),
                run.totalSteps(),
                (System.nanoTime() - started) / 1_000_000,
                queue.equals("gone") ? "the worker started" : "the submit",
                worker.stepsRun());
    }

    private static Engine engine(TestDatabase db, String prefix, BrokerOptions options) {
        return EngineFixture.withBroker(db, broker, prefix, options);
    }

    private static void deleteQueue(String queue) throws Exception {
        try (Connection connection = broker.newConnection()) {
            Channel channel = connection.createChannel();
            channel.queueDelete(queue);
        }
    }
}
