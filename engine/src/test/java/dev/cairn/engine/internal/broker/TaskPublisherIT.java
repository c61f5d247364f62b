package dev.cairn.engine.internal.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.LongStream;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
import com.rabbitmq.client.MessageProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.storage.testing.TestBroker;

/**
 * What reaches the task queue, counted message by message: every task once when the queue is
 * there, and every task once when it was deleted before the publish (the broker could not route
 * them; the publisher declared the queue again, of the type the installation asks for, and sent
 * them again), not zero as a confirm alone would have let pass.
 */
class TaskPublisherIT {

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @Test
    void eachTaskIsPublishedOnceWhenTheQueueIsThere() throws Exception {
        try (BrokerConnection connection = open("there", false)) {
            TaskPublisher publisher = new TaskPublisher(connection);
            for (int batch = 0; batch < 10; batch++) {
                publisher.publish(tasks(batch * 20L, 20));
            }
            assertEquals(LongStream.range(0, 200).boxed().toList(), drain("there.tasks"));
        }
    }

    @Test
    void tasksPublishedWhileTheClassicQueueIsMissingAreThereOnce() throws Exception {
        try (BrokerConnection connection = open("classic", false)) {
            TaskPublisher publisher = new TaskPublisher(connection);
            publisher.publish(tasks(0, 1)); // the channel is open and used before the queue goes
            deleteQueue("classic.tasks");
            publisher.publish(tasks(1, 5));
            publisher.publish(tasks(6, 4));
            // task 0 went with the deleted queue
            assertEquals(LongStream.range(1, 10).boxed().toList(), drain("classic.tasks"));
            assertEquals("classic", queueType("classic.tasks"));
        }
    }

    @Test
    void tasksPublishedWhileTheQuorumQueueIsMissingAreThereOnceInAQuorumQueue() throws Exception {
        try (BrokerConnection connection = open("quorum", true)) {
            deleteQueue("quorum.tasks");
            new TaskPublisher(connection).publish(tasks(0, 5));
            assertEquals(LongStream.range(0, 5).boxed().toList(), drain("quorum.tasks"));
            assertEquals("quorum", queueType("quorum.tasks"));
        }
    }

    /**
     * What the mandatory flag, its message id and the check for returns cost: batches of 20 tasks
     * through the publisher against the same batches published plainly (no flag, no id) on a channel
     * in confirm mode, alternating, each into a queue of its own; prints the ratio of their rates.
     */
    @Test
    void publishingMandatoryCostsLittleAgainstPlainConfirmedPublishes() throws Exception {
        int batches = 150;
        try (BrokerConnection connection = open("rate", false);
                Connection plain = broker.newConnection()) {
            TaskPublisher publisher = new TaskPublisher(connection);
            Channel reference = plain.createChannel();
            reference.confirmSelect();
            reference.queueDeclare("rate.reference", true, false, false, null);
            long[] nanos = new long[2];
            for (int round = 0; round < 2; round++) { // the first round warms up
                for (int b = 0; b < batches; b++) {
                    List<TaskMessage> batch = tasks(b * 20L, 20);
                    long t0 = System.nanoTime();
                    publisher.publish(batch);
                    long t1 = System.nanoTime();
                    for (TaskMessage t : batch) {
                        reference.basicPublish("", "rate.reference", MessageProperties.PERSISTENT_BASIC, t.toBytes());
                    }
                    reference.waitForConfirmsOrDie(30_000);
                    long t2 = System.nanoTime();
                    if (round == 1) {
                        nanos[0] += t1 - t0;
                        nanos[1] += t2 - t1;
                    }
                }
                assertEquals(batches * 20, drain("rate.tasks").size(), "tasks published mandatory, each once");
                assertEquals(batches * 20, drain("rate.reference").size(), "tasks published plainly");
            }
            System.out.printf(
                    Locale.ROOT,
                    "TaskPublisherIT: %d tasks in batches of 20: %.0f/s mandatory with returns checked, %.0f/s plain:"
                            + " %.2f%n",
                    batches * 20,
                    batches * 20 / (nanos[0] / 1e9),
                    batches * 20 / (nanos[1] / 1e9),
                    (double) nanos[1] / nanos[0]);
        }
    }

    private static BrokerConnection open(String prefix, boolean quorum) {
        return BrokerConnection.open(
                EngineFixture.amqpUri(broker),
                prefix,
                "task-publisher-it",
                BrokerConnection.DEFAULT_HEARTBEAT,
                quorum,
                List.of());
    }

    private static List<TaskMessage> tasks(long first, int count) {
        return LongStream.range(first, first + count)
                .mapToObj(p -> new TaskMessage(p, 1))
                .toList();
    }

    /** The process ids of every message in the queue, in order, taking them out. */
    private static List<Long> drain(String queue) throws Exception {
        List<Long> processes = new ArrayList<>();
        try (Connection c = broker.newConnection()) {
            Channel channel = c.createChannel();
            try {
                channel.queueDeclarePassive(queue);
            } catch (IOException notFound) {
                throw new AssertionError("no queue " + queue + " on the broker: the tasks published were lost");
            }
            for (GetResponse r; (r = channel.basicGet(queue, true)) != null; ) {
                processes.add(TaskMessage.fromBytes(r.getBody()).processId());
            }
        }
        return processes;
    }

    private static void deleteQueue(String queue) throws Exception {
        try (Connection c = broker.newConnection()) {
            c.createChannel().queueDelete(queue);
        }
    }

    private static String queueType(String queue) throws Exception {
        return EngineFixture.queueType(broker, queue);
    }
}
