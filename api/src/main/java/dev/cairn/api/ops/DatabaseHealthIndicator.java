package dev.cairn.api.ops;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import com.zaxxer.hikari.HikariPoolMXBean;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

import dev.cairn.engine.Engine;

/**
 * PostgreSQL, through the engine's own pool: up when a pooled connection answers a query, with the
 * server's version and the pool's counts; down when none comes within the pool's connect timeout
 * ({@code cairn.database.connect-timeout}), so a probe must wait a little longer than that.
 */
@Component
class DatabaseHealthIndicator implements HealthIndicator {

    private final Engine engine;

    DatabaseHealthIndicator(Engine engine) {
        this.engine = engine;
    }

    @Override
    public Health health() {
        Health.Builder health;
        long start = System.nanoTime();
        try (Connection c = engine.database().connection();
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW server_version")) {
            rs.next();
            health = Health.up().withDetail("version", rs.getString(1));
        } catch (SQLException e) {
            health = Health.down().withDetail("error", e.getMessage());
        }
        health.withDetail("millis", (System.nanoTime() - start) / 1_000_000);
        HikariPoolMXBean pool = ConnectionPool.of(engine.database()).getHikariPoolMXBean();
        if (pool != null) {
            health.withDetail("connections", pool.getTotalConnections())
                    .withDetail("active", pool.getActiveConnections())
                    .withDetail("waiting", pool.getThreadsAwaitingConnection());
        }
        return health.build();
    }
}
