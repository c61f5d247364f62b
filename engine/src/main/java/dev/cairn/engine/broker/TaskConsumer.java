package dev.cairn.engine.broker;

import java.io.IOException;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;

/**
 * Takes tasks from the queue, at most {@code slots} unacknowledged at a time (the
 * prefetch), and hands each to a handler, which acknowledges it when its step has
 * committed or hands it back. A task that cannot be read is rejected without requeue.
 */
public final class TaskConsumer implements AutoCloseable {

    /** A received task; exactly one of {@link #ack()} or {@link #requeue()} should be called. */
    public interface Delivery {
        TaskMessage task();

        boolean redelivered();

        void ack();

        void requeue();
    }

    @FunctionalInterface
    public interface Handler {
        void handle(Delivery delivery);
    }

    private final Channel channel;
    private String consumerTag;

    private TaskConsumer(Channel channel) {
        this.channel = channel;
    }

    public static TaskConsumer start(BrokerConnection connection, int slots, Handler handler) {
        Channel channel = connection.newChannel();
        TaskConsumer consumer = new TaskConsumer(channel);
        try {
            channel.basicQos(slots);
            consumer.consumerTag = channel.basicConsume(connection.topology().taskQueue(), false,
                new DefaultConsumer(channel) {
                    @Override
                    public void handleDelivery(String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
                        long deliveryTag = envelope.getDeliveryTag();
                        TaskMessage task;
                        try {
                            task = TaskMessage.fromBytes(body);
                        } catch (IllegalArgumentException e) {
                            consumer.settle(deliveryTag, false, false);
                            return;
                        }
                        handler.handle(consumer.delivery(task, envelope.isRedeliver(), deliveryTag));
                    }
                });
        } catch (IOException e) {
            throw new BrokerException("cannot consume the task queue: " + e.getMessage(), e);
        }
        return consumer;
    }

    private Delivery delivery(TaskMessage task, boolean redelivered, long tag) {
        return new Delivery() {
            @Override
            public TaskMessage task() {
                return task;
            }

            @Override
            public boolean redelivered() {
                return redelivered;
            }

            @Override
            public void ack() {
                settle(tag, true, false);
            }

            @Override
            public void requeue() {
                settle(tag, false, true);
            }
        };
    }

    /**
     * Acks or rejects. A failure here (the connection dropped) needs no handling: the
     * broker redelivers every unacknowledged task of a lost channel, and a redelivered task
     * whose step committed is skipped.
     */
    private void settle(long tag, boolean ack, boolean requeue) {
        try {
            synchronized (channel) {
                if (ack)
                    channel.basicAck(tag, false);
                else
                    channel.basicReject(tag, requeue);
            }
        } catch (IOException | RuntimeException ignored) {
            // see above
        }
    }

    /** Stops receiving new tasks; those already received stay with their handlers. */
    public void stopReceiving() {
        try {
            if (consumerTag != null && channel.isOpen())
                channel.basicCancel(consumerTag);
        } catch (IOException | RuntimeException ignored) {
            // a closed channel receives nothing anyway
        }
    }

    @Override
    public void close() {
        try {
            if (channel.isOpen())
                channel.close();
        } catch (IOException | TimeoutException | RuntimeException ignored) {
            // unacknowledged tasks go back to the queue
        }
    }
}
