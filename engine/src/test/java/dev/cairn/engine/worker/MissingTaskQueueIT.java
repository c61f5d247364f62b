package dev.cairn.engine.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.BrokerOptions;
import dev.cairn.engine.Engine;
import dev.cairn.engine.testing.ChainRun;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.SwallowedCancels;
import dev.cairn.engine.testing.Waits;
import dev.cairn.storage.testing.HeldTraffic;
import dev.cairn.storage.testing.TcpProxy;
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
    static final TestDatabase dropped = new TestDatabase();

    @RegisterExtension
    static final TestDatabase crowded = new TestDatabase();

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
            // Submitted at once: the publisher may declare the queue anew before the broker cancels the worker's
            // consumer of the old one, or the cancel may never come (it did not once, in CI); the worker's look
            // at the queue finds its consumer gone either way (the next test makes sure of the lost cancel).
            // The broker may also nack publishes to the queue it is deleting that it did enqueue: the relay sends
            // them again, and the worker skips the steps they name (the graph's counts below are exact).
            long started = System.nanoTime();
            ChainRun run = ChainRun.of(12, 4, 3).submit(api);
            awaitExactlyOnce(deleted, run, worker, started, "the submit", Resent.SKIPPED);
        }
    }

    @Test
    void aConsumerTheBrokerDroppedWithoutACancelConsumesAgainWhenTasksWait() throws Exception {
        BrokerOptions quorum =
                new BrokerOptions(BrokerOptions.DEFAULT_HEARTBEAT, BrokerOptions.TaskQueue.QUORUM, List.of());
        URI amqp = broker.server().amqp();
        SwallowedCancels cancels = new SwallowedCancels();
        try (TcpProxy proxy = new TcpProxy(amqp.getHost(), amqp.getPort() < 0 ? 5672 : amqp.getPort(), cancels);
                Engine api = engine(dropped, "dropped", quorum);
                Engine host = engine(dropped, "dropped", through(quorum, proxy));
                Worker worker = host.startWorker(Worker.Settings.defaults(4))) {
            // deleted and declared again at once; the proxy swallows the broker's cancel, if it sends one
            try (Connection connection = broker.newConnection()) {
                Channel channel = connection.createChannel();
                channel.queueDelete("dropped.tasks");
                channel.queueDeclare("dropped.tasks", true, false, false, Map.of("x-queue-type", "quorum"));
            }
            // RabbitMQ may count a consumer on the new queue that is given nothing: the worker's steps tell
            long counted = consumers("dropped.tasks");
            long started = System.nanoTime();
            ChainRun run = ChainRun.of(12, 4, 3).submit(api);
            Waits.until(IN_SECONDS, "the worker consuming dropped.tasks again", () -> worker.stepsRun() > 0);
            System.out.printf(
                    "MissingTaskQueueIT: the worker ran a step again %d ms after the submit to its dropped consumer"
                            + " (%d cancel(s) from the broker swallowed, %d consumer(s) counted on the new queue)%n",
                    (System.nanoTime() - started) / 1_000_000, cancels.count(), counted);
            awaitExactlyOnce(dropped, run, worker, started, "the submit");
        }
    }

    /**
     * As above, with another worker consuming the new queue: the queue's consumer count cannot tell the
     * dropped one is missing. The other worker starts after the queue is declared again, so its consumer is
     * a live one, and stalls (what the broker sends it is held back: it stays a consumer, holding the one
     * task its prefetch allows), so tasks wait; the worker whose consumer was dropped sees them wait while
     * it is given none, and consumes again.
     */
    @Test
    void aConsumerDroppedWhileAnotherWorkerConsumesConsumesAgainWhenTasksWait() throws Exception {
        BrokerOptions quorum =
                new BrokerOptions(BrokerOptions.DEFAULT_HEARTBEAT, BrokerOptions.TaskQueue.QUORUM, List.of());
        URI amqp = broker.server().amqp();
        int amqpPort = amqp.getPort() < 0 ? 5672 : amqp.getPort();
        SwallowedCancels cancels = new SwallowedCancels();
        HeldTraffic stall = new HeldTraffic();
        try (TcpProxy silentLink = new TcpProxy(amqp.getHost(), amqpPort, cancels);
                TcpProxy otherLink = new TcpProxy(amqp.getHost(), amqpPort, stall);
                Engine api = engine(crowded, "crowded", quorum);
                Engine silentHost = engine(crowded, "crowded", through(quorum, silentLink));
                Worker silent = silentHost.startWorker(Worker.Settings.defaults(4))) {
            // deleted and declared again at once; the proxy swallows the broker's cancel, if it sends one
            try (Connection connection = broker.newConnection()) {
                Channel channel = connection.createChannel();
                channel.queueDelete("crowded.tasks");
                channel.queueDeclare("crowded.tasks", true, false, false, Map.of("x-queue-type", "quorum"));
            }
            // a worker's start returns once the broker has its consumer
            try (Engine otherHost = engine(crowded, "crowded", through(quorum, otherLink));
                    Worker other = otherHost.startWorker(Worker.Settings.defaults(1))) {
                long counted = consumers("crowded.tasks");
                stall.hold();
                long started = System.nanoTime();
                ChainRun run = ChainRun.of(12, 4, 3).submit(api);
                Waits.until(IN_SECONDS, "the dropped worker consuming again", () -> silent.stepsRun() > 0);
                System.out.printf(
                        "MissingTaskQueueIT: beside a stalled consumer, the dropped one ran a step again %d ms after"
                                + " the submit (%d cancel(s) swallowed, %d consumer(s) counted)%n",
                        (System.nanoTime() - started) / 1_000_000, cancels.count(), counted);
                stall.release();
                run.awaitAllFinished(
                        crowded,
                        IN_SECONDS,
                        () -> "workers " + other + ", " + silent + "; the queue: "
                                + broker.describeQueue("crowded.tasks"));
                ChainRun.awaitOutboxEmpty(crowded, IN_SECONDS);
                run.assertExactlyOnce(crowded);
                assertEquals(run.totalSteps(), other.stepsRun() + silent.stepsRun(), "tasks delivered (none twice)");
            }
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

    /** Whether the worker may be given a task again that the relay re-sent after the broker nacked it. */
    private enum Resent {
        NONE,
        SKIPPED
    }

    private static void awaitExactlyOnce(TestDatabase db, ChainRun run, Worker worker, long since, String what)
            throws Exception {
        awaitExactlyOnce(db, run, worker, since, what, Resent.NONE);
    }

    /**
     * Waits until the run has finished, then checks it ran exactly once and that the worker received
     * each of its tasks once (or at least once, if tasks may be {@code resent}); prints how long it took after
     * {@code since}.
     */
    private static void awaitExactlyOnce(
            TestDatabase db, ChainRun run, Worker worker, long since, String what, Resent resent) throws Exception {
        run.awaitAllFinished(db, IN_SECONDS, () -> "worker " + worker);
        System.out.printf(
                "MissingTaskQueueIT: %d root chains (%d steps) finished %d ms after %s; %d tasks delivered%n",
                run.size(), run.totalSteps(), (System.nanoTime() - since) / 1_000_000, what, worker.stepsRun());
        ChainRun.awaitOutboxEmpty(db, IN_SECONDS);
        run.assertExactlyOnce(db);
        if (resent == Resent.NONE) {
            assertEquals(run.totalSteps(), worker.stepsRun(), "tasks delivered (none twice)");
        } else {
            assertTrue(worker.stepsRun() >= run.totalSteps(), "tasks delivered: " + worker.stepsRun());
        }
    }

    private static Engine engine(TestDatabase db, String prefix, BrokerOptions options) {
        return EngineFixture.withBroker(db, broker, prefix, options);
    }

    /** {@code options} with the broker reached through {@code proxy}. */
    private static BrokerOptions through(BrokerOptions options, TcpProxy proxy) {
        return new BrokerOptions(options.heartbeat(), options.taskQueue(), List.of("127.0.0.1:" + proxy.port()));
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
