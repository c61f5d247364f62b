package dev.cairn.engine.internal.broker;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;
import com.rabbitmq.client.ShutdownSignalException;

import dev.cairn.engine.internal.logging.RecurringFailureLog;
import dev.cairn.storage.errors.InvalidInputException;

/**
 * Takes tasks from the queue, at most {@code slots} unacknowledged at a time (the
 * prefetch), and hands each to a handler, which acknowledges it when its step has
 * committed or hands it back. A task that cannot be read is rejected without requeue.
 * <p>
 * The client recovers a lost connection by itself, but not a channel the broker closed on
 * its own (a consumer timeout, a channel error), nor a consumer the broker cancelled (the
 * task queue was deleted): then this consumer declares the queue again, as every engine does
 * at start, and consumes on a new channel. The tasks the old channel held come back from the
 * broker, and those whose step already committed are skipped.
 */
public final class TaskConsumer implements AutoCloseable {

    private static final Logger LOG = System.getLogger(TaskConsumer.class.getName());

    /** A received task; exactly one of {@link #ack()} or {@link #requeue()} should be called. */
    public interface Delivery {
        TaskMessage task();

        void ack();

        void requeue();
    }

    @FunctionalInterface
    public interface Handler {
        void handle(Delivery delivery);
    }

    private final BrokerConnection connection;
    private final int slots;
    private final Handler handler;
    private volatile Channel channel;
    private volatile String consumerTag;
    private volatile boolean closing;

    private TaskConsumer(BrokerConnection connection, int slots, Handler handler) {
        this.connection = connection;
        this.slots = slots;
        this.handler = handler;
    }

    public static TaskConsumer start(BrokerConnection connection, int slots, Handler handler) {
        TaskConsumer consumer = new TaskConsumer(connection, slots, handler);
        consumer.subscribe();
        return consumer;
    }

    private synchronized void subscribe() {
        Channel ch = connection.newChannel();
        try {
            connection.declareTopology();
            ch.basicQos(slots);
            ch.addShutdownListener(this::onChannelClosed);
            consumerTag = ch.basicConsume(connection.topology().taskQueue(), false, new DefaultConsumer(ch) {
                @Override
                public void handleDelivery(
                        String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
                    long deliveryTag = envelope.getDeliveryTag();
                    TaskMessage task;
                    try {
                        task = TaskMessage.fromBytes(body);
                    } catch (InvalidInputException e) {
                        settle(ch, deliveryTag, false, false);
                        return;
                    }
                    handler.handle(delivery(ch, task, deliveryTag));
                }

                @Override
                public void handleCancel(String tag) {
                    onCancelled(ch);
                }
            });
            channel = ch;
        } catch (IOException | ShutdownSignalException e) {
            close(ch);
            throw new BrokerException("cannot consume the task queue: " + e.getMessage(), e);
        }
    }

    /** The broker cancelled the consumer on {@code ch}: the queue was deleted, or became unavailable. */
    private void onCancelled(Channel ch) {
        if (closing) {
            return;
        }
        LOG.log(
                Level.WARNING,
                "the broker cancelled the consumer of the task queue {0} (the queue was deleted?); declaring it"
                        + " again and consuming on a new channel",
                connection.topology().taskQueue());
        resubscribe(ch);
    }

    /** A channel closed by the broker (not by us, and not with its connection, which recovers by itself). */
    private void onChannelClosed(ShutdownSignalException cause) {
        if (closing || cause.isInitiatedByApplication() || cause.isHardError()) {
            return;
        }
        LOG.log(
                Level.WARNING,
                "the broker closed the task channel ({0}); consuming again on a new channel",
                cause.getMessage());
        resubscribe(null);
    }

    /**
     * Consumes again on a new channel, retrying with backoff, then closes {@code old} (its tasks
     * go back to the queue, if it is still there). The old channel's shutdown is initiated here, so
     * it does not come back to {@link #onChannelClosed}.
     */
    private void resubscribe(Channel old) {
        Thread.ofPlatform().daemon().name("cairn-resubscribe").start(() -> {
            // tried every 5 s while the queue cannot be declared: said once a minute
            RecurringFailureLog failures = new RecurringFailureLog(LOG, Level.WARNING, Duration.ofMinutes(1));
            for (int attempt = 0; !closing; attempt++) {
                try {
                    subscribe();
                    failures.succeeded("consuming the task queue again");
                    if (old != null) {
                        close(old);
                    }
                    return;
                } catch (RuntimeException e) {
                    failures.failed("consuming the task queue again failed: " + e.getMessage());
                    try {
                        Thread.sleep(Math.min(5000, 200L << Math.min(attempt, 5)));
                    } catch (InterruptedException interrupted) {
                        return;
                    }
                }
            }
        });
    }

    private static Delivery delivery(Channel ch, TaskMessage task, long tag) {
        return new Delivery() {
            @Override
            public TaskMessage task() {
                return task;
            }

            @Override
            public void ack() {
                settle(ch, tag, true, false);
            }

            @Override
            public void requeue() {
                settle(ch, tag, false, true);
            }
        };
    }

    /**
     * Acks or rejects on the channel that delivered the task. A failure here (the channel or
     * connection dropped) needs no handling: the broker redelivers every unacknowledged
     * task of a lost channel, and a redelivered task whose step committed is skipped.
     */
    private static void settle(Channel ch, long tag, boolean ack, boolean requeue) {
        try {
            synchronized (ch) {
                if (ack) {
                    ch.basicAck(tag, false);
                } else {
                    ch.basicReject(tag, requeue);
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // see above
        }
    }

    /** Stops receiving new tasks; those already received stay with their handlers. */
    public void stopReceiving() {
        closing = true;
        try {
            Channel ch = channel;
            if (consumerTag != null && ch != null && ch.isOpen()) {
                ch.basicCancel(consumerTag);
            }
        } catch (IOException | RuntimeException ignored) {
            // a closed channel receives nothing anyway
        }
    }

    @Override
    public void close() {
        closing = true;
        Channel ch = channel;
        if (ch != null) {
            close(ch);
        }
    }

    private static void close(Channel ch) {
        try {
            if (ch.isOpen()) {
                ch.close();
            }
        } catch (IOException | TimeoutException | RuntimeException ignored) {
            // unacknowledged tasks go back to the queue
        }
    }
}
