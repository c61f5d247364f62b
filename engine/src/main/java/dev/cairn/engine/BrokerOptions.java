package dev.cairn.engine;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * How the engine talks to its broker, beyond where it is.
 *
 * @param heartbeat the AMQP heartbeat the engine asks for: a broker that hears nothing from a
 *                  worker for about two of them drops its connection and gives its unacknowledged
 *                  tasks to the other workers, and a worker that hears nothing from the broker as
 *                  long reconnects; the broker may lower it to its own ({@code heartbeat} of
 *                  {@code rabbitmq.conf})
 * @param taskQueue what kind of queue the task queue is declared as: classic (one node's) or
 *                  quorum (RabbitMQ's, replicated over a cluster's nodes by Raft); every server and
 *                  worker of an installation must say the same, as the broker refuses to declare a
 *                  queue again as another type
 * @param addresses the nodes of a broker cluster, {@code host} or {@code host:port}: the engine
 *                  tries them in a shuffled order (so that workers spread over the nodes) and
 *                  connects to one that answers, and so when its node goes; empty: the host of the
 *                  broker's URI alone
 */
public record BrokerOptions(Duration heartbeat, TaskQueue taskQueue, List<String> addresses) {

    /** RabbitMQ's client asks for 60 s; 15 s finds a lost worker within about half a minute. */
    public static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(15);

    private static final Pattern ADDRESS = Pattern.compile("(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9_.-]+)(?::(\\d{1,5}))?");

    /** The type of the task queue: {@code classic} or {@code quorum} in the settings. */
    public enum TaskQueue {
        CLASSIC,
        QUORUM;

        /** {@code classic} or {@code quorum}, in any case; anything else is refused, naming the setting. */
        public static TaskQueue parse(String text) {
            for (TaskQueue type : values()) {
                if (type.name().equalsIgnoreCase(text == null ? "" : text.strip())) {
                    return type;
                }
            }
            throw new InvalidInputException(
                    "cairn.broker.task-queue is 'classic' or 'quorum' (RabbitMQ's queue types), not '" + text + "'");
        }
    }

    public BrokerOptions {
        Objects.requireNonNull(heartbeat, "heartbeat");
        Objects.requireNonNull(taskQueue, "taskQueue");
        if (heartbeat.toSeconds() < 1 || heartbeat.toSeconds() > 65_535) {
            throw new InvalidInputException(
                    "the broker heartbeat is whole seconds from 1 s to 65535 s (AMQP's range), not " + heartbeat);
        }
        addresses = List.copyOf(addresses);
        for (String address : addresses) {
            Matcher m = ADDRESS.matcher(address);
            if (!m.matches() || (m.group(2) != null && !validPort(Integer.parseInt(m.group(2))))) {
                throw new InvalidInputException("cairn.broker.addresses lists host or host:port (port 1 to 65535),"
                        + " separated by commas, not '" + address + "'");
            }
        }
    }

    private static boolean validPort(int port) {
        return port >= 1 && port <= 65_535;
    }

    /** With a classic task queue, on the broker of the URI alone. */
    public BrokerOptions(Duration heartbeat) {
        this(heartbeat, TaskQueue.CLASSIC, List.of());
    }

    public static BrokerOptions defaults() {
        return new BrokerOptions(DEFAULT_HEARTBEAT);
    }
}
