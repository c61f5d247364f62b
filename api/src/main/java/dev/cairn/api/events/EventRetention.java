package dev.cairn.api.events;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import dev.cairn.api.config.CairnProperties;
import dev.cairn.engine.Engine;
import dev.cairn.engine.events.EventLog;

/**
 * Deletes state changes older than {@code cairn.events.retention} from {@code process_event},
 * every ten minutes, in every role (a deployment of workers alone keeps the table small too).
 * Cheap: an index on the time finds them, and they go {@value #BATCH} to a statement.
 * A client that comes back after longer than the retention gets what is left.
 */
@Component
class EventRetention implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(EventRetention.class);
    static final Duration EVERY = Duration.ofMinutes(10);
    static final int BATCH = 10_000;

    private final EventLog log;
    private final Duration retention;
    private volatile ScheduledExecutorService timer;

    EventRetention(Engine engine, CairnProperties properties) {
        this.log = engine.eventLog();
        this.retention = properties.events().retention();
    }

    /** Deletes what is past the retention now; returns how many changes. */
    long prune() {
        long deleted = log.prune(retention, BATCH);
        if (deleted > 0) {
            LOG.info("deleted {} process state changes older than {}", deleted, retention);
        }
        return deleted;
    }

    private void pruneQuietly() {
        try {
            prune();
        } catch (RuntimeException e) {
            LOG.warn("deleting old process state changes failed: {}", e.getMessage());
        }
    }

    @Override
    public void start() {
        timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("event-retention").daemon().factory());
        timer.scheduleWithFixedDelay(this::pruneQuietly, 1, EVERY.toMinutes(), TimeUnit.MINUTES);
    }

    @Override
    public void stop() {
        ScheduledExecutorService t = timer;
        timer = null;
        if (t != null) {
            t.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return timer != null;
    }
}
