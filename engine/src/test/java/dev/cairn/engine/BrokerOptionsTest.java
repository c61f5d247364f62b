package dev.cairn.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.cairn.errors.InvalidInputException;

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
}
