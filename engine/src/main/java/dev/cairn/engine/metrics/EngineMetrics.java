package dev.cairn.engine.metrics;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import dev.cairn.engine.internal.broker.BrokerConnection;
import dev.cairn.engine.internal.broker.QueueCounts;
import dev.cairn.engine.internal.state.Outbox;
import dev.cairn.engine.internal.state.ProcessTable;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.visibility.Internal;

/**
 * The numbers of one engine, for a monitoring system: counters kept in memory (cache hits; steps,
 * through the step listeners) and gauges read when asked (the task queue from the broker, the outbox
 * and the processes by state from the database). Reading a gauge costs a round trip: a caller that
 * asks often should keep the answer a few seconds. Nothing here depends on a metrics library.
 */
public final class EngineMetrics {

    private static final Logger LOG = System.getLogger(EngineMetrics.class.getName());

    private final Database database;
    private final BrokerConnection broker;
    private final LongAdder cacheHits;
    private final List<Consumer<StepTiming>> stepListeners = new CopyOnWriteArrayList<>();

    /**
     * @param broker    null for an engine without a broker
     * @param cacheHits counted by the engine's steps as they take outputs from the cache
     */
    @Internal
    public EngineMetrics(Database database, BrokerConnection broker, LongAdder cacheHits) {
        this.database = database;
        this.broker = broker;
        this.cacheHits = cacheHits;
    }

    /**
     * Calculations of this engine that took their outputs from the cache instead of running, since it
     * opened. Counted when a step takes them: a step that then fails to commit and runs again counts
     * twice.
     */
    public long cacheHits() {
        return cacheHits.sum();
    }

    /**
     * Calls {@code listener} after every task a worker of this engine is done with, in the worker's
     * thread: it must be quick, and what it throws is logged and ignored.
     */
    public void addStepListener(Consumer<StepTiming> listener) {
        stepListeners.add(listener);
    }

    public void removeStepListener(Consumer<StepTiming> listener) {
        stepListeners.remove(listener);
    }

    /** Tells the step listeners; the workers call it. */
    @Internal
    public void stepEnded(StepTiming timing) {
        for (Consumer<StepTiming> listener : stepListeners) {
            try {
                listener.accept(timing);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "a step listener failed: " + e, e);
            }
        }
    }

    /**
     * The task queue as the broker counts it now (a passive declare on a channel of its own).
     *
     * @throws dev.cairn.storage.errors.UnavailableException when the broker cannot be reached
     * @throws IllegalStateException                 when this engine has no broker
     */
    public TaskQueueState taskQueue() {
        if (broker == null) {
            throw new IllegalStateException("this engine has no broker (no AMQP URI was configured)");
        }
        QueueCounts counts = broker.taskQueueCounts();
        return new TaskQueueState(broker.topology().taskQueue(), counts.ready(), counts.consumers());
    }

    /**
     * Tasks committed and not yet known to be published (their publish failed, or is under way), and
     * delayed retries of failed job steps: what the outbox relays still have to send.
     *
     * @throws StorageException when the database cannot be reached
     */
    public long outboxRows() {
        try (Connection c = database.connection()) {
            return Outbox.count(c);
        } catch (SQLException e) {
            throw new StorageException("counting the outbox", e);
        }
    }

    /**
     * The processes of the installation, every one the engine launched (submitted or run in-process,
     * and their children), by state; every state is there, with zero when none is in it.
     *
     * @throws StorageException when the database cannot be reached
     */
    public Map<ProcessState, Long> processesByState() {
        Map<ProcessState, Long> counts = new EnumMap<>(ProcessState.class);
        for (ProcessState state : ProcessState.values()) {
            counts.put(state, 0L);
        }
        try (Connection c = database.connection()) {
            counts.putAll(ProcessTable.countByState(c));
        } catch (SQLException e) {
            throw new StorageException("counting the processes by state", e);
        }
        return counts;
    }

    /**
     * How many processes ended (finished, excepted or were killed) in each of the last {@code minutes}
     * minutes, oldest first: the installation's throughput, from the state changes the event streams
     * keep ({@code process_event}, by its time index).
     *
     * @throws StorageException when the database cannot be reached
     */
    public long[] endedPerMinute(int minutes) {
        long[] counts = new long[minutes];
        try (Connection c = database.connection();
                PreparedStatement s = c.prepareStatement("SELECT floor(extract(epoch FROM now() - time) / 60)::int,"
                        + " count(*) FROM process_event WHERE time > now() - make_interval(mins => ?)"
                        + " AND to_state IN ('finished', 'excepted', 'killed') GROUP BY 1")) {
            s.setInt(1, minutes);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    int ago = rs.getInt(1);
                    if (ago >= 0 && ago < minutes) {
                        counts[minutes - 1 - ago] = rs.getLong(2);
                    }
                }
            }
        } catch (SQLException e) {
            throw new StorageException("counting the processes that ended in the last " + minutes + " minutes", e);
        }
        return counts;
    }
}
