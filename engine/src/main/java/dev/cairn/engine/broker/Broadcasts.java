package dev.cairn.engine.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;

import dev.cairn.storage.db.JsonCodec;

/**
 * Fire-and-forget messages on the events exchange: state changes for watchers, and control
 * signals for the worker running a process. Losing one loses no state, which lives in the
 * database; subscribers see only what is sent while they listen.
 */
public final class Broadcasts implements AutoCloseable {

    private final BrokerConnection connection;
    private final ThreadLocal<Channel> channels = new ThreadLocal<>();

    public Broadcasts(BrokerConnection connection) {
        this.connection = connection;
    }

    /** Sends a JSON body under {@code routingKey} ("state.12.finished", "control.12"); failures are ignored. */
    public void send(String routingKey, Map<String, Object> body) {
        try {
            Channel channel = channels.get();
            if (channel == null || !channel.isOpen()) {
                channel = connection.newChannel();
                channels.set(channel);
            }
            channel.basicPublish(
                    connection.topology().events(),
                    routingKey,
                    null,
                    JsonCodec.write(body).getBytes(StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException ignored) {
            // broadcasts are best effort by design
        }
    }

    /**
     * Listens for messages whose routing key matches {@code pattern} ("state.#",
     * "control.*") on a queue of this subscriber's own, removed when it closes.
     */
    public Subscription subscribe(String pattern, BiConsumer<String, Map<String, Object>> listener) {
        Channel channel = connection.newChannel();
        try {
            String queue = channel.queueDeclare("", false, true, true, null).getQueue();
            channel.queueBind(queue, connection.topology().events(), pattern);
            channel.basicConsume(queue, true, new DefaultConsumer(channel) {
                @Override
                public void handleDelivery(
                        String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
                    listener.accept(
                            envelope.getRoutingKey(), JsonCodec.readObject(new String(body, StandardCharsets.UTF_8)));
                }
            });
        } catch (IOException e) {
            throw new BrokerException("cannot subscribe to " + pattern + ": " + e.getMessage(), e);
        }
        return new Subscription(channel);
    }

    /** An open subscription; closing it removes its queue. */
    public static final class Subscription implements AutoCloseable {
        private final Channel channel;

        private Subscription(Channel channel) {
            this.channel = channel;
        }

        @Override
        public void close() {
            try {
                if (channel.isOpen()) {
                    channel.close();
                }
            } catch (IOException | TimeoutException | RuntimeException ignored) {
                // the exclusive queue goes with the channel's connection anyway
            }
        }
    }

    @Override
    public void close() {
        Channel channel = channels.get();
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException | TimeoutException | RuntimeException ignored) {
                // nothing to keep
            }
        }
    }
}
