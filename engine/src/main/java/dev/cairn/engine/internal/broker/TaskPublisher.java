package dev.cairn.engine.internal.broker;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

import com.rabbitmq.client.Channel;
import com.rabbitmq.client.MessageProperties;

/**
 * Publishes tasks as persistent messages and waits for the broker's confirms, so a
 * returned call means the broker has them. Each thread publishes on a channel of its own.
 */
public final class TaskPublisher {

    private static final Duration CONFIRM_TIMEOUT = Duration.ofSeconds(30);

    private final BrokerConnection connection;
    private final ThreadLocal<Channel> channels = new ThreadLocal<>();

    public TaskPublisher(BrokerConnection connection) {
        this.connection = connection;
    }

    /** Publishes and waits for confirms; throws {@link BrokerException} when they did not all arrive. */
    public void publish(List<TaskMessage> tasks) {
        if (tasks.isEmpty()) {
            return;
        }
        Channel channel = channel();
        String queue = connection.topology().taskQueue();
        try {
            for (TaskMessage t : tasks) {
                channel.basicPublish("", queue, MessageProperties.PERSISTENT_BASIC, t.toBytes());
            }
            channel.waitForConfirmsOrDie(CONFIRM_TIMEOUT.toMillis());
        } catch (IOException | TimeoutException | RuntimeException e) {
            channels.remove();
            closeQuietly(channel);
            throw new BrokerException("publishing " + tasks.size() + " task(s) failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrokerException("interrupted while waiting for the broker's confirms", e);
        }
    }

    private Channel channel() {
        Channel channel = channels.get();
        if (channel == null || !channel.isOpen()) {
            channel = connection.newChannel();
            try {
                channel.confirmSelect();
            } catch (IOException e) {
                closeQuietly(channel);
                throw new BrokerException("cannot enable publisher confirms: " + e.getMessage(), e);
            }
            channels.set(channel);
        }
        return channel;
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
