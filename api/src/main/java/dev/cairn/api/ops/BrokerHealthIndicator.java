package dev.cairn.api.ops;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

import dev.cairn.engine.Engine;
import dev.cairn.engine.metrics.TaskQueueState;
import dev.cairn.storage.errors.UnavailableException;

/**
 * The AMQP broker, through the engine's own connection: up when the broker counts the task queue
 * for it (its ready tasks and its consumers, the workers), down while the connection is lost and
 * recovering.
 */
@Component
class BrokerHealthIndicator implements HealthIndicator {

    private final Engine engine;

    BrokerHealthIndicator(Engine engine) {
        this.engine = engine;
    }

    @Override
    public Health health() {
        try {
            TaskQueueState queue = engine.metrics().taskQueue();
            return Health.up()
                    .withDetail("queue", queue.name())
                    .withDetail("ready", queue.ready())
                    .withDetail("consumers", queue.consumers())
                    .build();
        } catch (UnavailableException e) {
            return Health.down().withDetail("error", e.getMessage()).build();
        }
    }
}
