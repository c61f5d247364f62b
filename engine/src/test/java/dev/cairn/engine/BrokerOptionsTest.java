package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;

class BrokerOptionsTest {

    @Test
    void theHeartbeatIsFifteenSecondsUnlessSetAndWholeSecondsInAmqpsRange() {
        assertEquals(Duration.ofSeconds(15), BrokerOptions.defaults().heartbeat());
        assertEquals(Duration.ofSeconds(5), new BrokerOptions(Duration.ofSeconds(5)).heartbeat());
        InvalidInputException e =
                assertThrows(InvalidInputException.class, () -> new BrokerOptions(Duration.ofMillis(500)));
        assertEquals(
                "the broker heartbeat is whole seconds from 1 s to 65535 s (AMQP's range), not PT0.5S", e.getMessage());
        assertThrows(InvalidInputException.class, () -> new BrokerOptions(Duration.ofDays(1)));
    }

    @Test
    void theTaskQueueIsClassicUnlessQuorumIsAskedForAndAnythingElseIsRefusedNamingTheSetting() {
        assertEquals(BrokerOptions.TaskQueue.CLASSIC, BrokerOptions.defaults().taskQueue());
        assertEquals(BrokerOptions.TaskQueue.QUORUM, BrokerOptions.TaskQueue.parse(" Quorum "));
        assertEquals(BrokerOptions.TaskQueue.CLASSIC, BrokerOptions.TaskQueue.parse("classic"));
        InvalidInputException e =
                assertThrows(InvalidInputException.class, () -> BrokerOptions.TaskQueue.parse("stream"));
        assertEquals(
                "cairn.broker.task-queue is 'classic' or 'quorum' (RabbitMQ's queue types), not 'stream'",
                e.getMessage());
    }

    @Test
    void addressesAreHostsWithOrWithoutAPortAndABadOneIsNamed() {
        assertEquals(List.of(), BrokerOptions.defaults().addresses());
        assertEquals(
                List.of("mq1", "mq2:5673", "10.0.0.3:5672", "[::1]:5672"),
                new BrokerOptions(
                                Duration.ofSeconds(15),
                                BrokerOptions.TaskQueue.QUORUM,
                                List.of("mq1", "mq2:5673", "10.0.0.3:5672", "[::1]:5672"))
                        .addresses());
        for (String bad : List.of("mq1:0", "mq1:70000", "amqp://mq1", "mq1:", "")) {
            InvalidInputException e = assertThrows(
                    InvalidInputException.class,
                    () -> new BrokerOptions(Duration.ofSeconds(15), BrokerOptions.TaskQueue.CLASSIC, List.of(bad)));
            assertEquals(
                    "cairn.broker.addresses lists host or host:port (port 1 to 65535), separated by commas, not '" + bad
                            + "'",
                    e.getMessage());
        }
    }
}
