package dev.cairn.storage.testing;

import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.rabbitmq.RabbitMQContainer;

/**
 * The Testcontainers fallback of {@link TestServices}: one PostgreSQL and one RabbitMQ
 * container per JVM, started on first use. One per JVM because starting them takes
 * seconds, while isolation comes from the database and virtual host each test class
 * creates on them. Testcontainers' Ryuk removes the containers when the JVM exits.
 */
final class Containers {

    // The versions Debian 12 ships, which CI runs against (.ci/services).
    static final String POSTGRES_IMAGE = "postgres:15-alpine";
    static final String RABBITMQ_IMAGE = "rabbitmq:3.10-management-alpine";

    private static PostgreSQLContainer postgres;
    private static RabbitMQContainer rabbitmq;

    private Containers() {}

    static synchronized PostgresServer postgres() {
        if (postgres == null) {
            PostgreSQLContainer container = new PostgreSQLContainer(POSTGRES_IMAGE);
            container.start();
            postgres = container;
        }
        // The container's user is a superuser, so it may create databases.
        return PostgresServer.of(
                postgres.getHost(),
                postgres.getMappedPort(PostgreSQLContainer.POSTGRESQL_PORT),
                "postgres",
                postgres.getUsername(),
                postgres.getPassword());
    }

    static synchronized RabbitServer rabbitmq() {
        if (rabbitmq == null) {
            RabbitMQContainer container = new RabbitMQContainer(RABBITMQ_IMAGE);
            container.start();
            rabbitmq = container;
        }
        // The admin user is an administrator; the image lets it connect from outside.
        return RabbitServer.of(
                rabbitmq.getHost(),
                rabbitmq.getAmqpPort(),
                rabbitmq.getHttpPort(),
                rabbitmq.getAdminUsername(),
                rabbitmq.getAdminPassword());
    }
}
