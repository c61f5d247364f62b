package dev.cairn.engine.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.BrokerOptions;
import dev.cairn.engine.Engine;
import dev.cairn.engine.testing.ChainRun;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * The task queue as a RabbitMQ quorum queue (cairn.broker.task-queue=quorum), on the tests' real
 * broker: the queue the engine declares is a quorum queue, work chains run through it exactly
 * once (with the broker given as one of a list of nodes, the others down), and an installation whose queue is on the broker already as a classic queue is refused with
 * a message that says what to do, before anything is submitted.
 */
class QuorumQueueIT {

    static final BrokerOptions QUORUM =
            new BrokerOptions(BrokerOptions.DEFAULT_HEARTBEAT, BrokerOptions.TaskQueue.QUORUM, List.of());

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @Test
    void workChainsRunExactlyOnceThroughAQuorumTaskQueue() throws Exception {
        // the nodes of a cluster as an installation lists them: a port nobody listens on, then the
        // broker; the engine and its worker connect to the one that answers, whichever is tried first
        var amqp = broker.server().amqp();
        String live = amqp.getHost() + ":" + (amqp.getPort() < 0 ? 5672 : amqp.getPort());
        BrokerOptions nodes = new BrokerOptions(
                BrokerOptions.DEFAULT_HEARTBEAT, BrokerOptions.TaskQueue.QUORUM, List.of("127.0.0.1:1", live));
        try (Engine engine = engine("quorum", nodes);
                Worker worker = engine.startWorker(Worker.Settings.defaults(4))) {
            assertEquals("quorum", queueType("quorum.tasks"));
            ChainRun run = ChainRun.of(60, 10, 4).submit(engine);
            run.awaitAllFinished(db, Duration.ofSeconds(90), () -> "worker " + worker);
            ChainRun.awaitOutboxEmpty(db, Duration.ofSeconds(30));
            run.assertExactlyOnce(db);
            System.out.println("QuorumQueueIT: " + run.size() + " root chains, " + run.totalSteps()
                    + " steps through a quorum task queue, each exactly once");
        }
    }

    @Test
    void aClassicTaskQueueOnTheBrokerIsNotTakenForAQuorumOne() throws Exception {
        try (Engine classic = engine("classic", BrokerOptions.defaults())) {
            assertEquals("classic", queueType("classic.tasks"));
        }
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> engine("classic", QUORUM));
        assertTrue(
                e.getMessage()
                        .startsWith("the task queue classic.tasks is on the broker already as another type"
                                + " of queue than the quorum queue cairn.broker.task-queue asks for"),
                e.getMessage());
        assertTrue(e.getMessage().contains("rabbitmqctl delete_queue classic.tasks"), e.getMessage());
        assertEquals("classic", queueType("classic.tasks"), "the refused declare left the queue as it was");
    }

    private static Engine engine(String prefix, BrokerOptions options) {
        return EngineFixture.withBroker(db, broker, prefix, options);
    }

    private static String queueType(String queue) throws Exception {
        return EngineFixture.queueType(broker, queue);
    }
}
