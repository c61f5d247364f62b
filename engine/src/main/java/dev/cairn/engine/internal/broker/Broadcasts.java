package dev.cairn.engine.internal.broker;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.DefaultConsumer;
import com.rabbitmq.client.Envelope;

import dev.cairn.engine.events.ControlSignal;
import dev.cairn.engine.events.EventFilter;
import dev.cairn.engine.events.StateChanged;
import dev.cairn.engine.events.Subscription;
import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.errors.InvalidInputException;

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

    /** Broadcasts a committed state change; a failure is ignored (broadcasts are best effort). */
    public void publish(StateChanged change) {
        send(EventCodec.routingKey(change), EventCodec.write(change));
    }

    public void publish(ControlSignal signal) {
        send(EventCodec.routingKey(signal), EventCodec.write(signal));
    }

    private void send(String routingKey, Map<String, Object> body) {
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

    /** The state changes {@code filter} names, on a queue of this subscriber's own, removed when it closes. */
    public Subscription subscribe(EventFilter filter, Consumer<StateChanged> listener) {
        String pattern = "state." + (filter.processId() == null ? "*" : Long.toString(filter.processId())) + "."
                + (filter.to() == null ? "*" : filter.to().dbValue());
        return subscribe(pattern, EventCodec::readStateChanged, listener);
    }

    /** Control signals for any process. */
    public Subscription subscribeControl(Consumer<ControlSignal> listener) {
        return subscribe("control.*", EventCodec::readControlSignal, listener);
    }

    private <T> Subscription subscribe(String pattern, Function<Map<String, Object>, T> decoder, Consumer<T> listener) {
        Channel channel = connection.newChannel();
        try {
            String queue = channel.queueDeclare("", false, true, true, null).getQueue();
            channel.queueBind(queue, connection.topology().events(), pattern);
            channel.basicConsume(queue, true, new DefaultConsumer(channel) {
                @Override
                public void handleDelivery(
                        String tag, Envelope envelope, AMQP.BasicProperties properties, byte[] body) {
                    T message;
                    try {
                        message = decoder.apply(JsonCodec.readObject(new String(body, StandardCharsets.UTF_8)));
                    } catch (InvalidInputException e) {
                        return; // not ours to read (another version's message): skip it
                    }
                    listener.accept(message);
                }
            });
        } catch (IOException e) {
            throw new BrokerException("cannot subscribe to " + pattern + ": " + e.getMessage(), e);
        }
        return () -> close(channel);
    }

    private static void close(Channel channel) {
        try {
            if (channel.isOpen()) {
                channel.close();
            }
        } catch (IOException | TimeoutException | RuntimeException ignored) {
            // the exclusive queue goes with the channel's connection anyway
        }
    }

    @Override
    public void close() {
        Channel channel = channels.get();
        if (channel != null) {
            close(channel);
        }
    }
}
