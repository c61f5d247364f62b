package dev.cairn.engine.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
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
import dev.cairn.engine.testing.Waits;
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
    static final TestDatabase refused = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @Test
    void tasksSubmittedWhileTheQueueIsGoneRunOnceWhenAWorkerComes() throws Exception {
        try (Engine api = engine(gone, "gone", BrokerOptions.defaults())) {
            deleteQueue("gone.tasks");
            ChainRun run = ChainRun.of(12, 4, 3).submit(api);
            try (Engine host = engine(gone, "gone", BrokerOptions.defaults());
                    Worker worker = host.startWorker(Worker.Settings.defaults(4))) {
                awaitExactlyOnce(gone, run, worker, System.nanoTime(), "the worker started");
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
            // The worker declares the queue again and consumes it before anything is submitted. Submitting at
            // once raced the broker: the publisher declared the queue anew before the broker had cancelled the
            // worker's consumer of the old one, and once (in CI) the cancel never came and the worker consumed
            // nothing for a minute. The publisher's part is the first test's.
            Waits.until(IN_SECONDS, "the worker consuming deleted.tasks again", () -> consumers("deleted.tasks") > 0);
            long started = System.nanoTime();
            ChainRun run = ChainRun.of(12, 4, 3).submit(api);
            awaitExactlyOnce(deleted, run, worker, started, "the submit");
        }
    }

    @Test
    void tasksTheBrokerCannotTakeStayInTheOutboxUntilTheQueueCanBeDeclaredAgain() throws Exception {
        try (Engine api = engine(refused, "refused", BrokerOptions.defaults());
                Engine host = engine(refused, "refused", BrokerOptions.defaults());
                Worker worker = host.startWorker(Worker.Settings.defaults(4))) {
            ChainRun run;
            broker.limitQueues(0); // the queue cannot be declared again: 406 PRECONDITION_FAILED
            try {
                deleteQueue("refused.tasks");
                run = ChainRun.of(12, 4, 3).submit(api);
                assertEquals(
                        run.size(),
                        ChainRun.quietCount(refused, "SELECT count(*) FROM outbox"),
                        "tasks the broker handed back, kept in the outbox");
                assertEquals(0, ChainRun.stepsCommitted(refused), "steps committed with no task queue");
            } finally {
                broker.limitQueues(null);
            }
            awaitExactlyOnce(refused, run, worker, System.nanoTime(), "the queue could be declared again");
        }
    }

    /**
     * Waits until the run has finished, then checks it ran exactly once and that the worker received
     * each of its tasks once; prints how long it took after {@code since}.
     */
    private static void awaitExactlyOnce(TestDatabase db, ChainRun run, Worker worker, long since, String what)
            throws Exception {
        run.awaitAllFinished(db, IN_SECONDS, () -> "worker " + worker);
        System.out.printf(
                "MissingTaskQueueIT: %d root chains (%d steps) finished %d ms after %s; %d tasks delivered%n",
                run.size(), run.totalSteps(), (System.nanoTime() - since) / 1_000_000, what, worker.stepsRun());
        ChainRun.awaitOutboxEmpty(db, IN_SECONDS);
        run.assertExactlyOnce(db);
        assertEquals(run.totalSteps(), worker.stepsRun(), "tasks delivered (none twice)");
    }

    private static Engine engine(TestDatabase db, String prefix, BrokerOptions options) {
        return EngineFixture.withBroker(db, broker, prefix, options);
    }

    /** The queue's consumers; 0 while it does not exist. */
    private static long consumers(String queue) {
        try (Connection connection = broker.newConnection()) {
            return connection.createChannel().queueDeclarePassive(queue).getConsumerCount();
        } catch (IOException notThere) {
            return 0;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void deleteQueue(String queue) throws Exception {
        try (Connection connection = broker.newConnection()) {
            Channel channel = connection.createChannel();
            channel.queueDelete(queue);
        }
    }
}
