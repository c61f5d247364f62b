package dev.cairn.engine.internal.broker;

import java.io.IOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.MessageProperties;
import com.rabbitmq.client.ShutdownSignalException;

import dev.cairn.engine.internal.logging.RecurringFailureLog;
import dev.cairn.storage.errors.InvalidInputException;

/**
 * Publishes tasks as persistent, mandatory messages and waits for the broker's confirms, so a
 * returned call means the task queue has them. Each thread publishes on a channel of its own.
 * <p>
 * A confirm alone does not say that: the broker confirms a message it could not route, and drops
 * it. So every task is mandatory, and one the broker hands back (the task queue is not there: an
 * operator deleted it, or a new virtual host has none yet) makes the publisher declare the queue
 * again, with the arguments every engine declares it with, and publish those tasks once more. Tasks
 * that come back again are not taken as sent: the caller keeps their outbox rows, and the outbox
 * relay sends them at its next passes.
 */
public final class TaskPublisher {

    private static final Logger LOG = System.getLogger(TaskPublisher.class.getName());
    private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(30);

    private final BrokerConnection connection;
    private final ThreadLocal<Publishing> channels = new ThreadLocal<>();

    // the relays try each second while the queue is missing or cannot be declared: say so once a minute
    private final RecurringFailureLog unroutable = new RecurringFailureLog(LOG, Level.WARNING, Duration.ofMinutes(1));
    private final RecurringFailureLog declareFailures =
            new RecurringFailureLog(LOG, Level.ERROR, Duration.ofMinutes(1));

    /** A channel in confirm mode and the tasks it had handed back, by publish sequence number. */
    private record Publishing(Channel channel, Set<Long> returned) {}

    public TaskPublisher(BrokerConnection connection) {
        this.connection = connection;
    }

    /**
     * Publishes and waits for confirms; throws {@link BrokerException} when they did not all
     * arrive, or some tasks could not be routed to the task queue, declared again.
     */
    public void publish(List<TaskMessage> tasks) {
        if (tasks.isEmpty()) {
            return;
        }
        Publishing publishing = channel();
        try {
            List<TaskMessage> unrouted = send(publishing, tasks);
            if (unrouted.isEmpty()) {
                return;
            }
            String queue = connection.topology().taskQueue();
            unroutable.failed("the broker could not route " + unrouted.size() + " task(s) to the task queue " + queue
                    + ": declaring the queue again");
            declareTaskQueue(unrouted.size());
            unrouted = send(publishing, unrouted);
            if (!unrouted.isEmpty()) {
                throw new BrokerException(
                        "the broker could not route " + unrouted.size() + " task(s) to the task queue " + queue
                                + ", declared again",
                        null);
            }
            unroutable.succeeded("tasks reach the task queue " + queue + " again");
        } catch (IOException | TimeoutException | RuntimeException e) {
            channels.remove();
            closeQuietly(publishing.channel());
            if (e instanceof BrokerException b) {
                throw b;
            }
            throw new BrokerException("publishing " + tasks.size() + " task(s) failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerException("interrupted while waiting for the broker's confirms", e);
        }
    }

    /**
     * Publishes and waits for the confirms; returns the tasks the broker handed back. A return
     * comes before the confirm of its message, on the connection's one reading thread, so once the
     * confirms are in the returns are known.
     */
    private List<TaskMessage> send(Publishing publishing, List<TaskMessage> tasks)
            throws IOException, InterruptedException, TimeoutException {
        Channel channel = publishing.channel();
        publishing.returned().clear();
        String queue = connection.topology().taskQueue();
        long[] sequence = new long[tasks.size()];
        for (int i = 0; i < tasks.size(); i++) {
            sequence[i] = channel.getNextPublishSeqNo();
            AMQP.BasicProperties properties = MessageProperties.PERSISTENT_BASIC
                    .builder()
                    .messageId(Long.toString(sequence[i]))
                    .build();
            channel.basicPublish("", queue, true, properties, tasks.get(i).toBytes());
        }
        channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT.toMillis());
        List<TaskMessage> unrouted = new ArrayList<>();
        for (int i = 0; i < tasks.size(); i++) {
            if (publishing.returned().contains(sequence[i])) {
                unrouted.add(tasks.get(i));
            }
        }
        return unrouted;
    }

    /** Declares the task queue as every engine does at start ({@link Topology}), or says why it cannot. */
    private void declareTaskQueue(int unrouted) {
        try {
            connection.declareTopology();
            declareFailures.succeeded(
                    "declared the task queue " + connection.topology().taskQueue() + " again");
        } catch (IOException | ShutdownSignalException | InvalidInputException e) {
            String why = "the broker could not route " + unrouted + " task(s) to the task queue "
                    + connection.topology().taskQueue() + ", and declaring it again failed (" + e.getMessage()
                    + "); the tasks stay in the outbox";
            declareFailures.failed(why);
            throw new BrokerException(why, e);
        }
    }

    private Publishing channel() {
        Publishing publishing = channels.get();
        if (publishing == null || !publishing.channel().isOpen()) {
            Channel channel = connection.newChannel();
            Set<Long> returned = ConcurrentHashMap.newKeySet();
            channel.addReturnListener(r -> {
                String id = r.getProperties().getMessageId();
                if (id != null) {
                    returned.add(Long.parseLong(id));
                }
            });
            try {
                channel.confirmSelect();
            } catch (IOException e) {
                closeQuietly(channel);
                throw new BrokerException("cannot enable publisher confirms: " + e.getMessage(), e);
            }
            publishing = new Publishing(channel, returned);
            channels.set(publishing);
        }
        return publishing;
    }

    private static void closeQuietly(Channel channel) {
        try {
            if (channel.isOpen()) {
                channel.close();
            }
        } catch (IOException | TimeoutException | RuntimeException ignored) {
            // the channel is gone either way
        }
    }
}
