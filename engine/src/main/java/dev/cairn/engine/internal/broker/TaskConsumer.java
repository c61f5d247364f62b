package dev.cairn.engine.internal.broker;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

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
 * <p>
 * The broker may also drop the consumer without a word (RabbitMQ 3.10 sent no cancel when a quorum task
 * queue was deleted and declared again at once): every {@link #CHECK_EVERY} a look at the
 * queue ({@link ConsumerWatch}) finds that, and the consumer consumes again the same way. One
 * resubscription runs at a time, and only for the channel that consumes now, so a cancel, a closed
 * channel and a look that all see the same loss consume again once.
 */
public final class TaskConsumer implements AutoCloseable {

    private static final Logger LOG = System.getLogger(TaskConsumer.class.getName());

    /**
     * How often the consumer looks at the task queue for a consumer the broker dropped silently: a passive
     * declare on a channel opened for it, three round trips to the broker. A timer of its own rather than
     * the outbox relay's pass: that pass waits on the database while it is away, and runs every second.
     */
    static final Duration CHECK_EVERY = Duration.ofSeconds(5);

    /**
     * How soon a look follows one that found tasks waiting while this consumer held none (a live consumer
     * with a free slot is given a waiting task in milliseconds), so that a lost one consumes again sooner;
     * only a regular look is followed so.
     */
    static final Duration RECHECK_AFTER = Duration.ofSeconds(1);

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

    /** One consumer on one channel, and what it was given and holds. */
    private static final class Subscription {
        final Channel channel;
        final AtomicLong delivered = new AtomicLong();
        final AtomicInteger unsettled = new AtomicInteger();
        volatile String tag;

        Subscription(Channel channel) {
            this.channel = channel;
        }
    }

    private final BrokerConnection connection;
    private final int slots;
    private final Handler handler;
    private final AtomicBoolean resubscribing = new AtomicBoolean();
    private final ConsumerWatch watch = new ConsumerWatch();
    // a dropped consumer is found at most every CHECK_EVERY: said once, then at most once a minute
    private final RecurringFailureLog drops = new RecurringFailureLog(LOG, Level.WARNING, Duration.ofMinutes(1));
    private final RecurringFailureLog failedChecks = new RecurringFailureLog(LOG, Level.WARNING, Duration.ofMinutes(1));
    private final ScheduledExecutorService checks;
    private volatile Subscription current;
    private volatile boolean closing;

    private TaskConsumer(BrokerConnection connection, int slots, Handler handler) {
        this.connection = connection;
        this.slots = slots;
        this.handler = handler;
        this.checks = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("cairn-consumer-check").daemon().factory());
    }

    public static TaskConsumer start(BrokerConnection connection, int slots, Handler handler) {
        TaskConsumer consumer = new TaskConsumer(connection, slots, handler);
        consumer.subscribe();
        long every = CHECK_EVERY.toMillis();
        consumer.checks.scheduleWithFixedDelay(() -> consumer.check(false), every, every, TimeUnit.MILLISECONDS);
        return consumer;
    }

    private synchronized void subscribe() {
        Channel ch = connection.newChannel();
        Subscription s = new Subscription(ch);
        try {
            connection.declareTopology();
            ch.basicQos(slots);
            ch.addShutdownListener(cause -> onChannelClosed(s, cause));
            s.tag = ch.basicConsume(connection.topology().taskQueue(), false, new DefaultConsumer(ch) {
                @Override
                public void handleDelivery(
                        String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
                    long deliveryTag = envelope.getDeliveryTag();
                    s.delivered.incrementAndGet();
                    TaskMessage task;
                    try {
                        task = TaskMessage.fromBytes(body);
                    } catch (InvalidInputException e) {
                        settle(ch, deliveryTag, false, false);
                        return;
                    }
                    s.unsettled.incrementAndGet();
                    handler.handle(delivery(s, task, deliveryTag));
                }

                @Override
                public void handleCancel(String tag) {
                    onCancelled(s);
                }
            });
            current = s;
        } catch (IOException | ShutdownSignalException e) {
            close(ch);
            throw new BrokerException("cannot consume the task queue: " + e.getMessage(), e);
        }
    }

    /** The broker cancelled the consumer {@code s}: the queue was deleted, or became unavailable. */
    private void onCancelled(Subscription s) {
        if (claim(s)) {
            LOG.log(
                    Level.WARNING,
                    "the broker cancelled the consumer of the task queue {0} (the queue was deleted?); declaring it"
                            + " again and consuming on a new channel",
                    connection.topology().taskQueue());
            resubscribe(s);
        }
    }

    /** A channel closed by the broker (not by us, and not with its connection, which recovers by itself). */
    private void onChannelClosed(Subscription s, ShutdownSignalException cause) {
        if (!cause.isInitiatedByApplication() && !cause.isHardError() && claim(s)) {
            LOG.log(
                    Level.WARNING,
                    "the broker closed the task channel ({0}); consuming again on a new channel",
                    cause.getMessage());
            resubscribe(s);
        }
    }

    /**
     * One look at the task queue; consumes again if the broker dropped the consumer without a word. A
     * failed look (the broker away: the connection recovers by itself) is tried at the next.
     *
     * @param followUp whether this look follows one at {@link #RECHECK_AFTER}
     */
    void check(boolean followUp) {
        Subscription s = current;
        if (closing || s == null || resubscribing.get()) {
            return;
        }
        ConsumerWatch.Held held = new ConsumerWatch.Held(s.delivered.get(), s.unsettled.get());
        QueueCounts counts;
        try {
            counts = connection.taskQueueCountsIfDeclared().orElse(null);
        } catch (BrokerException e) {
            if (connection.isOpen()) {
                failedChecks.failed("looking at the task queue for this worker's consumer failed: " + e.getMessage());
            }
            return;
        }
        failedChecks.succeeded("looking at the task queue for this worker's consumer works again");
        if (!watch.lost(s, counts, held)) {
            if (watch.suspects() && !followUp) {
                recheckSoon();
            }
            drops.succeeded("the broker has this worker's consumer of "
                    + connection.topology().taskQueue());
            return;
        }
        if (!claim(s)) {
            return;
        }
        String queue = connection.topology().taskQueue();
        drops.failed(
                counts == null
                        ? "the task queue " + queue + " is gone from the broker while this worker consumed it, and"
                                + " no cancel came; declaring it again and consuming on a new channel"
                        : "the broker has no consumer of this worker's on the task queue " + queue + " ("
                                + counts.ready() + " task(s) ready, " + counts.consumers() + " consumer(s)), and no"
                                + " cancel came; consuming again on a new channel");
        resubscribe(s);
    }

    private void recheckSoon() {
        try {
            checks.schedule(() -> check(true), RECHECK_AFTER.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            // stopping: no more looks
        }
    }

    /**
     * Whether the caller may consume again in place of {@code s}: not if {@code s} no longer consumes
     * or another resubscription runs. A true must be followed by {@link #resubscribe}.
     */
    private boolean claim(Subscription s) {
        return !closing && s == current && resubscribing.compareAndSet(false, true);
    }

    /**
     * Consumes again on a new channel, retrying with backoff, then closes the channel of {@code old}
     * (its tasks go back to the queue, if it is still there), and ends the {@link #claim}. That shutdown
     * is initiated here, so it does not come back to {@link #onChannelClosed}.
     */
    private void resubscribe(Subscription old) {
        Thread.ofPlatform().daemon().name("cairn-resubscribe").start(() -> {
            // tried every 5 s while the queue cannot be declared: said once a minute
            RecurringFailureLog failures = new RecurringFailureLog(LOG, Level.WARNING, Duration.ofMinutes(1));
            try {
                for (int attempt = 0; !closing; attempt++) {
                    try {
                        subscribe();
                        failures.succeeded("consuming the task queue again");
                        close(old.channel);
                        return;
                    } catch (RuntimeException e) {
                        failures.failed("consuming the task queue again failed: " + e.getMessage());
                        Thread.sleep(Math.min(5000, 200L << Math.min(attempt, 5)));
                    }
                }
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
            } finally {
                resubscribing.set(false);
            }
        });
    }

    private static Delivery delivery(Subscription s, TaskMessage task, long tag) {
        AtomicBoolean settled = new AtomicBoolean();
        return new Delivery() {
            @Override
            public TaskMessage task() {
                return task;
            }

            @Override
            public void ack() {
                settleOnce(true, false);
            }

            @Override
            public void requeue() {
                settleOnce(false, true);
            }

            private void settleOnce(boolean ack, boolean requeue) {
                if (settled.compareAndSet(false, true)) {
                    s.unsettled.decrementAndGet();
                }
                settle(s.channel, tag, ack, requeue);
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
        checks.shutdownNow();
        try {
            Subscription s = current;
            if (s != null && s.tag != null && s.channel.isOpen()) {
                s.channel.basicCancel(s.tag);
            }
        } catch (IOException | RuntimeException ignored) {
            // a closed channel receives nothing anyway
        }
    }

    @Override
    public void close() {
        closing = true;
        checks.shutdownNow();
        Subscription s = current;
        if (s != null) {
            close(s.channel);
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
