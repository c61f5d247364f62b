package dev.cairn.engine;

import java.time.Duration;
import java.util.Objects;

import dev.cairn.errors.InvalidInputException;

/**
 * How the engine talks to its broker, beyond where it is.
 *
 * @param heartbeat the AMQP heartbeat the engine asks for: a broker that hears nothing from a
 *                  worker for about two of them drops its connection and gives its unacknowledged
 *                  tasks to the other workers, and a worker that hears nothing from the broker as
 *                  long reconnects; the broker may lower it to its own ({@code heartbeat} of
 *                  {@code rabbitmq.conf})
 */
public record BrokerOptions(Duration heartbeat) {

    /** RabbitMQ's client asks for 60 s; 15 s finds a lost worker within about half a minute. */
    public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(15);

    public BrokerOptions {
        Objects.requireNonNull(heartbeat, "heartbeat");
        if (heartbeat.toSeconds() < 1 || heartbeat.toSeconds() > 65_535) {
            throw new InvalidInputException(
                    "the broker heartbeat is whole seconds from 1 s to 65535 s (AMQP's range), not " + heartbeat);
        }
    }

    public static BrokerOptions defaults() {
        return new BrokerOptions(DEFAULT_HEARTBEAT);
    }
}
