package dev.cairn.engine.internal.broker;

import java.io.IOException;

import com.rabbitmq.client.BuiltinExchangeType;
import com.rabbitmq.client.Channel;

import dev.cairn.errors.InvalidInputException;

/**
 * The queue and exchange of one Cairn installation ({@code prefix}): a durable task queue
 * that workers share, and a topic exchange for state changes ({@code state.<pid>.<state>})
 * and control signals ({@code control.<pid>}). Plain AMQP 0-9-1: no broker-specific queue
 * arguments, so any compliant broker runs it.
 */
public record Topology(String prefix) {

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
        channel.queueDeclare(taskQueue(), true, false, false, null);
        channel.exchangeDeclare(events(), BuiltinExchangeType.TOPIC, true);
    }
}
