package dev.cairn.storage.testing;

import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.testcontainers.DockerClientFactory;

/**
 * Where the integration tests find PostgreSQL and RabbitMQ (docs/architecture.md, "Tests use real services"), in this
 * order:
 * <ol>
 *   <li>the environment: {@value #DB_URL}, {@value #AMQP_URI} and optionally
 *       {@value #AMQP_MANAGEMENT_URI} ({@code source .ci/services} sets all three);</li>
 *   <li>Testcontainers, when a Docker engine answers;</li>
 *   <li>otherwise an {@link IllegalStateException} that says how to provide them. Tests
 *       never skip for want of a service.</li>
 * </ol>
 * Each service is resolved on its own, so a database from the environment and a broker
 * from a container is fine.
 */
public final class TestServices {

    public static final String DB_URL = "CAIRN_TEST_DB_URL";
    public static final String AMQP_URI = "CAIRN_TEST_AMQP_URI";
    public static final String AMQP_MANAGEMENT_URI = "CAIRN_TEST_AMQP_MANAGEMENT_URI";

    private static final TestServices FROM_ENVIRONMENT = new TestServices(
            System.getenv(), () -> DockerClientFactory.instance().isDockerAvailable());

    private final Map<String, String> environment;
    private final BooleanSupplier dockerAvailable;

    /**
     * @param environment     the variables to read, normally {@link System#getenv()}
     * @param dockerAvailable asked only when a variable is missing, because the answer costs
     *                        a Docker probe
     */
    TestServices(Map<String, String> environment, BooleanSupplier dockerAvailable) {
        this.environment = Map.copyOf(environment);
        this.dockerAvailable = dockerAvailable;
    }

    /** The services of this JVM's environment. */
    public static TestServices fromEnvironment() {
        return FROM_ENVIRONMENT;
    }

    public PostgresServer postgres() {
        String url = variable(DB_URL);
        if (url != null) {
            return PostgresServer.parse(url);
        }
        return fromDocker("PostgreSQL", DB_URL, Containers::postgres);
    }

    public RabbitServer rabbitmq() {
        String amqp = variable(AMQP_URI);
        if (amqp != null) {
            return RabbitServer.parse(amqp, variable(AMQP_MANAGEMENT_URI));
        }
        return fromDocker("RabbitMQ", AMQP_URI, Containers::rabbitmq);
    }

    private <T> T fromDocker(String service, String variable, Supplier<T> container) {
        if (dockerAvailable.getAsBoolean()) {
            return container.get();
        }
        throw new IllegalStateException(missing(service, variable));
    }

    private String variable(String name) {
        String value = environment.get(name);
        return value == null || value.isBlank() ? null : value.strip();
    }

    /** The message of a test run that has neither the variables nor Docker. */
    static String missing(String service, String variable) {
        return "No " + service + " for the integration tests: " + variable + " is not set and no Docker engine"
                + " is available. Provide PostgreSQL and RabbitMQ in one of these ways:\n"
                + "  1. point at running ones:\n"
                + "       export " + DB_URL + "='jdbc:postgresql://127.0.0.1:5432/postgres?user=cairn&password=cairn'\n"
                + "       export " + AMQP_URI + "='amqp://cairn:cairn@127.0.0.1:5672/'\n"
                + "       export " + AMQP_MANAGEMENT_URI + "='http://cairn:cairn@127.0.0.1:15672'"
                + "   # optional, this is the default\n"
                + "     (the database user needs CREATEDB; the broker user the administrator tag and the"
                + " management plugin);\n"
                + "  2. on Debian or Ubuntu, as root: `source .ci/services` installs and starts both and exports"
                + " the variables; run Maven from that shell;\n"
                + "  3. start a Docker engine: Testcontainers then starts PostgreSQL and RabbitMQ containers.";
    }
}
