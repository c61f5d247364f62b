package dev.cairn.engine.internal.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.Connection;
import com.rabbitmq.client.GetResponse;
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
