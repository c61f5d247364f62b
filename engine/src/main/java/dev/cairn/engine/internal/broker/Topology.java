package dev.cairn.engine.internal.broker;

import java.io.IOException;
import java.util.Map;

import com.rabbitmq.client.AMQP;
import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;
import com.rabbitmq.client.ShutdownSignalException;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * The queue and exchange of one Cairn installation ({@code prefix}): a durable task queue
 * that workers share, and a topic exchange for state changes ({@code state.<pid>.<state>})
 * and control signals ({@code control.<pid>}). Plain AMQP 0-9-1 unless {@code quorum}: then the
 * task queue is a RabbitMQ quorum queue (replicated by Raft over a cluster's nodes), declared with
 * the one argument that says so; it uses nothing a quorum queue lacks (per-consumer prefetch only,
 * no priorities, no exclusive or auto-delete task queue).
 */
public record Topology(String prefix, boolean quorum) {

    /** What RabbitMQ answers a declare whose arguments differ from those of the queue there. */
    private static final int PRECONDITION_FAILED = 406;

    public Topology {
        if (prefix == null || !prefix.matches("[A-Za-z0-9_.-]+")) {
            throw new InvalidInputException("broker prefix '" + prefix + "' must be letters, digits, '.', '_' or '-'");
        }
    }

    public String taskQueue() {
        return prefix + ".tasks";
    }

    public String events() {
        return prefix + ".events";
    }

    void declare(Channel channel) throws IOException {
        try {
            channel.queueDeclare(taskQueue(), true, false, false, quorum ? Map.of("x-queue-type", "quorum") : Map.of());
        } catch (IOException e) {
            if (!(e.getCause() instanceof ShutdownSignalException s
                    && s.getReason() instanceof AMQP.Channel.Close close)) {
                throw e;
            }
            if (close.getReplyCode() == PRECONDITION_FAILED
                    && close.getReplyText().contains("inequivalent arg")) {
                throw new InvalidInputException(
                        "the task queue " + taskQueue() + " is on the broker already as another type of queue than "
                                + (quorum ? "the quorum queue" : "the classic queue")
                                + " cairn.broker.task-queue asks for (" + close.getReplyText()
                                + "): set it as the queue was made, or let the workers drain the queue, stop them"
                                + " and delete it (rabbitmqctl delete_queue " + taskQueue() + ") before they start"
                                + " with the new setting");
            }
            // another refusal (a limit on the number of queues, a permission): say which
            throw new IOException(
                    "the broker refused to declare the task queue " + taskQueue() + ": " + close.getReplyText(), e);
        }
        channel.exchangeDeclare(events(), BuiltinExchangeType.TOPIC, true);
    }
}
