package dev.cairn.api.stats;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

import dev.cairn.storage.Storage;
import dev.cairn.storage.graph.statistics.GraphStatistics;

/**
 * Folds the changes the database's triggers appended to the node counts into one row per key,
 * every {@link #EVERY}, whatever the server's roles (workers store nodes too). The statistics are
 * exact without it; it keeps reading them fast. Servers on one database take turns.
 */
@Component
class TallyCompaction implements SmartLifecycle {

    private static final Logger LOG = LoggerFactory.getLogger(TallyCompaction.class);
    static final Duration EVERY = Duration.ofSeconds(10);

    private final GraphStatistics statistics;
    private ScheduledExecutorService timer;

    TallyCompaction(Storage storage) {
        this.statistics = storage.statistics();
    }

    @Override
    public synchronized void start() {
        timer = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().name("cairn-tally-compaction").daemon().factory());
        timer.scheduleWithFixedDelay(this::compact, EVERY.toMillis(), EVERY.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void compact() {
        try {
            statistics.compact();
        } catch (RuntimeException e) {
            // the database may be away for a moment; the next round does the work
            LOG.warn("compacting the node counts failed: {}", e.getMessage());
        }
    }

    @Override
    public synchronized void stop() {
        if (timer != null) {
            timer.shutdownNow();
            try {
                timer.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            timer = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return timer != null;
    }
}
