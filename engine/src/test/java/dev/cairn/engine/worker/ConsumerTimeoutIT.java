package dev.cairn.engine.worker;

import static dev.cairn.engine.testing.TestProcesses.ADD;
import static dev.cairn.engine.testing.TestProcesses.SLOW;
import static dev.cairn.engine.testing.TestProcesses.X;
import static dev.cairn.engine.testing.TestProcesses.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownSignalException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.Engine;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.RabbitCtl;
import dev.cairn.engine.testing.RunsAlone;
import dev.cairn.engine.testing.TestProcesses;
import dev.cairn.engine.testing.Waits;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * RabbitMQ closes the channel of a consumer that holds a delivery unacknowledged for longer
 * than {@code consumer_timeout} (30 minutes by default). A work chain may wait for its
 * children far longer than that; it must hold no delivery while it waits, or its worker
 * would lose its consumer. The test lowers the broker's timeout to 2 s (and the interval at
 * which channels check it, {@code channel_tick_interval}, from 60 s to 0.5 s) and puts
 * both back afterwards. RabbitMQ reads the timeout when a channel opens, so it is set
 * before the engine connects. Other users of the local broker whose channels open
 * meanwhile get the low timeout too.
 */
@RunsAlone
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConsumerTimeoutIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    static final int TIMEOUT_MS = 2000;
    static final int TICK_MS = 500;

    static String previousTimeout;
    static String previousTick;
    static Engine engine;

    @BeforeAll
    static void lowerTheTimeout() throws Exception {
        previousTimeout = RabbitCtl.getEnv("consumer_timeout");
        previousTick = RabbitCtl.getEnv("channel_tick_interval");
        RabbitCtl.setEnv("channel_tick_interval", Integer.toString(TICK_MS));
        RabbitCtl.setEnv("consumer_timeout", Integer.toString(TIMEOUT_MS));
        engine = EngineFixture.withBroker(db, broker);
    }

    @AfterAll
    static void restoreTheTimeout() throws Exception {
        try {
            if (engine != null) {
                engine.close();
            }
        } finally {
            try {
                if (previousTimeout != null) {
                    RabbitCtl.restoreEnv("consumer_timeout", previousTimeout);
                }
            } finally {
                if (previousTick != null) {
                    RabbitCtl.restoreEnv("channel_tick_interval", previousTick);
                }
            }
        }
    }

    /** Sanity check: the lowered timeout does close a channel that holds a delivery, so the next test means something. */
    @Test
    @Order(1)
    void theBrokerClosesAChannelThatHoldsADeliveryPastTheTimeout() throws Exception {
        try (Connection connection = broker.newConnection()) {
            Channel channel = connection.createChannel();
            String queue = channel.queueDeclare("", false, true, true, null).getQueue();
            channel.basicPublish("", queue, null, "held".getBytes(StandardCharsets.UTF_8));
            CompletableFuture<ShutdownSignalException> closed = new CompletableFuture<>();
            channel.addShutdownListener(closed::complete);
            CountDownLatch received = new CountDownLatch(1);
            channel.basicQos(1);
            channel.basicConsume(queue, false, new DefaultConsumer(channel) {
                @Override
                public void handleDelivery(
                        String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
                    received.countDown(); // and never acknowledged
                }
            });
            assertTrue(received.await(10, TimeUnit.SECONDS), "the message was delivered");
            long start = System.nanoTime();
            ShutdownSignalException reason;
            try {
                reason = closed.get(TIMEOUT_MS + 4L * TICK_MS + 10_000, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError(
                        "RabbitMQ did not enforce consumer_timeout = " + TIMEOUT_MS + " ms (checked every "
                                + TICK_MS + " ms) on a delivery held unacknowledged for "
                                + (System.nanoTime() - start) / 1_000_000
                                + " ms: the worker test below would prove nothing");
            }
            long heldMs = (System.nanoTime() - start) / 1_000_000;
            System.out.println("ConsumerTimeoutIT: channel closed after holding a delivery " + heldMs + " ms: "
                    + reason.getMessage());
            assertTrue(String.valueOf(reason.getMessage()).contains("PRECONDITION_FAILED"), reason.getMessage());
            assertTrue(heldMs >= TIMEOUT_MS - 200, "closed after " + heldMs + " ms");
        }
    }

    @Test
    @Order(2)
    void aParentWaitingLongerThanTheTimeoutHoldsNoDeliveryAndTheWorkerKeepsConsuming() throws Exception {
        try (Worker worker =
                engine.startWorker(new Worker.Settings(2, Duration.ofSeconds(5), OutboxRelay.Settings.defaults()))) {
            // slow tasks queued behind the parent delay its child's task, so that it can be paused in time
            List<Launcher.Launch> launches = new ArrayList<>();
            launches.add(new Launcher.Launch(TestProcesses.WaitSlow.DEFINITION, Inputs.of(X, new IntData(50))));
            for (int i = 0; i < 8; i++) {
                launches.add(new Launcher.Launch(SLOW, Inputs.of(X, new IntData(400))));
            }
            List<ProcessNode> nodes = engine.launcher().submitAll(launches);
            long parent = nodes.getFirst().id();

            Waits.until(Duration.ofSeconds(10), "the child of " + parent, () -> childOf(parent) > 0);
            long child = childOf(parent);
            try {
                engine.control().pause(child);
            } catch (RuntimeException e) {
                throw new AssertionError("could not pause the child before it ran; the test needs it paused", e);
            }
            long pausedAt = System.nanoTime();
            for (ProcessNode slow : nodes.subList(1, nodes.size())) {
                awaitState(slow.id(), "finished", Duration.ofSeconds(30));
            }

            // the parent waits well past the timeout, with the broker checking it 4 times a second
            long waitMs = 3L * TIMEOUT_MS + 2L * TICK_MS - (System.nanoTime() - pausedAt) / 1_000_000;
            if (waitMs > 0) {
                Thread.sleep(waitMs);
            }
            assertEquals("waiting", state(parent));
            assertEquals("created", state(child), "the paused child did not run");
            long waitedMs = (System.nanoTime() - pausedAt) / 1_000_000;
            assertTrue(waitedMs > 3L * TIMEOUT_MS, "waited " + waitedMs + " ms");

            engine.control().play(child);
            awaitState(parent, "finished", Duration.ofSeconds(10));
            ProcessNode done = (ProcessNode) engine.graph().load(parent);
            assertEquals(0, done.exitStatus());
            assertEquals(50, result(parent));

            // the consumer was not closed by the broker: the worker still takes new tasks
            ProcessNode after = engine.launcher().submit(ADD, Inputs.of(X, new IntData(2), Y, new IntData(3)));
            awaitState(after.id(), "finished", Duration.ofSeconds(10));
            assertEquals(5, result(after.id()));
            System.out.println("ConsumerTimeoutIT: the parent waited " + waitedMs + " ms; worker ran "
                    + worker.stepsRun() + " steps");
        }
    }

    @Test
    @Order(3)
    void aStepLongerThanTheTimeoutLosesItsChannelAndTheWorkerConsumesOnANewOne() throws Exception {
        try (Worker worker =
                engine.startWorker(new Worker.Settings(1, Duration.ofSeconds(5), OutboxRelay.Settings.defaults()))) {
            ProcessNode slow = engine.launcher().submit(SLOW, Inputs.of(X, new IntData(3L * TIMEOUT_MS)));
            awaitState(slow.id(), "finished", Duration.ofSeconds(30));
            // the broker closed the channel mid-step; the next task still runs on a new one
            ProcessNode after = engine.launcher().submit(ADD, Inputs.of(X, new IntData(4), Y, new IntData(5)));
            awaitState(after.id(), "finished", Duration.ofSeconds(15));
            assertEquals(9, result(after.id()));
            assertEquals(3L * TIMEOUT_MS, result(slow.id()));
            assertEquals(
                    1,
                    EngineFixture.count(
                            db, "SELECT count(*) FROM link WHERE input_id = " + slow.id() + " AND type = 'create'"),
                    "the slow step, redelivered after its channel closed, ran once");
        }
    }

    private static long childOf(long parent) {
        try {
            return EngineFixture.count(db, "SELECT coalesce(max(node_id), 0) FROM process WHERE parent_id = " + parent);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String state(long id) {
        return ((ProcessNode) engine.graph().load(id)).processState();
    }

    private static void awaitState(long id, String state, Duration timeout) throws InterruptedException {
        Waits.until(timeout, "process " + id + " to be " + state, () -> state.equals(state(id)));
    }

    private static long result(long id) {
        ProcessNode node = (ProcessNode) engine.graph().load(id);
        return ((IntData) engine.graph()
                        .load(engine.graph().outgoing(node).stream()
                                .filter(l -> l.label().equals("result"))
                                .findFirst()
                                .orElseThrow()
                                .nodeId()))
                .value();
    }
}
