package dev.cairn.api.ops;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.stereotype.Component;

import dev.cairn.engine.Engine;
import dev.cairn.engine.metrics.EngineMetrics;
import dev.cairn.engine.metrics.StepTiming;
import dev.cairn.engine.metrics.TaskQueueState;
import dev.cairn.engine.process.ProcessState;

/**
 * The engine's meters, from its plain counters and listeners, and its connection pool's:
 * <ul>
 *   <li>{@code cairn.steps} (timer, tag {@code outcome}: committed, skipped, returned): every task a
 *       worker of this JVM finished, with how long it held it; its count's rate is the steps per second;
 *   <li>{@code cairn.tasks.ready}, {@code cairn.tasks.consumers} (gauges): the broker's task queue;
 *   <li>{@code cairn.processes} (gauge, tag {@code state}): the processes by state, installation-wide;
 *   <li>{@code cairn.outbox.rows} (gauge): tasks committed and not yet published;
 *   <li>{@code cairn.cache.hits} (counter): calculations that took their outputs from the cache;
 *   <li>{@code hikaricp.*}: the pool {@code cairn-graph}, by HikariCP's own Micrometer binding.
 * </ul>
 * The gauges read the database or the broker at most once per {@link #MAX_AGE}.
 */
@Component
class EngineMeters implements MeterBinder {

    /** How long a gauge's reading of the database or the broker is kept. */
    static final Duration MAX_AGE = Duration.ofSeconds(5);

    /** The step latency histogram's buckets: a handful, from a quick calcfunction to a slow transport's submission. */
    private static final Duration[] STEP_BUCKETS = {
        Duration.ofMillis(5),
        Duration.ofMillis(10),
        Duration.ofMillis(25),
        Duration.ofMillis(50),
        Duration.ofMillis(100),
        Duration.ofMillis(250),
        Duration.ofMillis(500),
        Duration.ofSeconds(1),
        Duration.ofMillis(2500),
        Duration.ofSeconds(5),
        Duration.ofSeconds(10),
        Duration.ofSeconds(30),
        Duration.ofSeconds(60),
        Duration.ofMinutes(5)
    };

    private record Counts(long outbox, Map<ProcessState, Long> processes) {}

    private final Engine engine;
    private final Recent<TaskQueueState> queue;
    private final Recent<Counts> counts;

    EngineMeters(Engine engine) {
        this.engine = engine;
        EngineMetrics metrics = engine.metrics();
        this.queue = new Recent<>(metrics::taskQueue, MAX_AGE);
        this.counts = new Recent<>(
                () -> new Counts(metrics.outboxRows(), new EnumMap<>(metrics.processesByState())), MAX_AGE);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        EngineMetrics metrics = engine.metrics();
        Map<StepTiming.Outcome, Timer> steps = new EnumMap<>(StepTiming.Outcome.class);
        for (StepTiming.Outcome outcome : StepTiming.Outcome.values()) {
            steps.put(
                    outcome,
                    Timer.builder("cairn.steps")
                            .description("Tasks the workers of this server finished, and how long each held its task")
                            .tag("outcome", outcome.name().toLowerCase(Locale.ROOT))
                            .serviceLevelObjectives(STEP_BUCKETS)
                            .register(registry));
        }
        metrics.addStepListener(step -> steps.get(step.outcome()).record(step.took()));

        gauge(registry, "cairn.tasks.ready", "Tasks waiting in the broker's task queue", queue, TaskQueueState::ready);
        gauge(registry, "cairn.tasks.consumers", "Workers consuming the task queue", queue, TaskQueueState::consumers);
        gauge(registry, "cairn.outbox.rows", "Tasks committed and not yet published", counts, Counts::outbox);
        for (ProcessState state : ProcessState.values()) {
            Gauge.builder(
                            "cairn.processes",
                            counts,
                            c -> value(c, n -> n.processes().getOrDefault(state, 0L)))
                    .description("Processes of the installation, by state")
                    .tag("state", state.dbValue())
                    .register(registry);
        }
        FunctionCounter.builder("cairn.cache.hits", metrics, EngineMetrics::cacheHits)
                .description("Calculations that took their outputs from the cache instead of running")
                .register(registry);

        HikariDataSource pool = ConnectionPool.of(engine.database());
        if (pool.getMetricsTrackerFactory() == null) {
            // HikariCP's own binding (hikaricp.connections.*), set on the running pool as Spring Boot does
            pool.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
        }
    }

    private static <T> void gauge(
            MeterRegistry registry, String name, String description, Recent<T> recent, ToDoubleFunction<T> read) {
        Gauge.builder(name, recent, r -> value(r, read))
                .description(description)
                .register(registry);
    }

    /** The reading, or NaN (no sample) while the database or the broker does not answer. */
    private static <T> double value(Recent<T> recent, ToDoubleFunction<T> read) {
        T value = recent.get();
        return value == null ? Double.NaN : read.applyAsDouble(value);
    }
}
