package dev.cairn.storage.testing;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

class TestServicesTest {

    private static final Map<String, String> NOTHING = Map.of();

    @Test
    void withoutVariablesOrDockerTheDatabaseErrorSaysHowToProvideTheServices() {
        var services = new TestServices(NOTHING, () -> false);

        String message =
                assertThrows(IllegalStateException.class, services::postgres).getMessage();

        assertNamesEveryWayToProvideTheServices(message);
        assertTrue(message.startsWith("No PostgreSQL"), message);
    }

    @Test
    void withoutVariablesOrDockerTheBrokerErrorSaysHowToProvideTheServices() {
        var services = new TestServices(NOTHING, () -> false);

        String message =
                assertThrows(IllegalStateException.class, services::rabbitmq).getMessage();

        assertNamesEveryWayToProvideTheServices(message);
        assertTrue(message.startsWith("No RabbitMQ"), message);
    }

    @Test
    void blankVariablesCountAsMissing() {
        var services = new TestServices(Map.of(TestServices.DB_URL, " ", TestServices.AMQP_URI, ""), () -> false);

        assertThrows(IllegalStateException.class, services::postgres);
        assertThrows(IllegalStateException.class, services::rabbitmq);
    }

    @Test
    void variablesWinWithoutAskingDocker() {
        var services = new TestServices(
                Map.of(
                        TestServices.DB_URL, "jdbc:postgresql://db.example:5433/admin?user=u&password=p",
                        TestServices.AMQP_URI, "amqp://a:b@mq.example:5673/",
                        TestServices.AMQP_MANAGEMENT_URI, "http://m:n@mq.example:15673"),
                () -> {
                    throw new AssertionError("Docker must not be probed when the variables are set");
                });

        assertEquals(
                "jdbc:postgresql://db.example:5433/admin?user=u&password=p",
                services.postgres().adminUrl());
        assertEquals(
                "http://mq.example:15673", services.rabbitmq().managementBase().toString());
        assertEquals("a", services.rabbitmq().user());
    }

    private static void assertNamesEveryWayToProvideTheServices(String message) {
        assertAll(
                () -> assertTrue(message.contains("CAIRN_TEST_DB_URL"), message),
                () -> assertTrue(message.contains("CAIRN_TEST_AMQP_URI"), message),
                () -> assertTrue(message.contains("CAIRN_TEST_AMQP_MANAGEMENT_URI"), message),
                () -> assertTrue(message.contains("source .ci/services"), message),
                () -> assertTrue(message.contains("Docker"), message));
    }
}
