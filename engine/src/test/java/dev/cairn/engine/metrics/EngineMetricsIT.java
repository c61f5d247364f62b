package dev.cairn.engine.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.Engine;
import dev.cairn.engine.caching.CachingPolicy;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.TestProcesses;
import dev.cairn.engine.testing.Waits;
import dev.cairn.engine.worker.Worker;
import dev.cairn.storage.db.DatabaseConfig;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * An engine's numbers as a monitoring system reads them: tasks wait in the queue until a worker
 * consumes them, the processes move from created to finished, the step listeners hear of every
 * task, and a calculation that takes its outputs from the cache counts as a hit.
 */
class EngineMetricsIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @Test
    void tasksWaitInTheQueueUntilAWorkerRunsThemAndTheListenersHearOfEach() throws Exception {
        try (Engine engine = EngineFixture.withBroker(db, broker)) {
            EngineMetrics metrics = engine.metrics();
            Map<ProcessState, Long> before = metrics.processesByState();
            List<Launcher.Launch> launches = List.of(add(1, 2), add(3, 4), add(5, 6));
            engine.launcher().submitAll(launches);

            TaskQueueState queued = metrics.taskQueue();
            assertEquals("cairn.tasks", queued.name());
            assertEquals(3, queued.ready(), "no worker runs: the three tasks wait");
            assertEquals(0, queued.consumers());
            assertEquals(
                    before.get(ProcessState.CREATED) + 3,
                    metrics.processesByState().get(ProcessState.CREATED));
            assertEquals(0, metrics.outboxRows(), "the tasks were published, so their rows are gone");

            List<StepTiming> heard = new CopyOnWriteArrayList<>();
            metrics.addStepListener(heard::add);
            metrics.addStepListener(t -> {
                throw new IllegalStateException("a listener that fails stops nothing");
            });
            try (Worker worker = engine.startWorker(Worker.Settings.defaults(2))) {
                Waits.until(Duration.ofSeconds(30), "three steps heard", () -> heard.size() == 3);
                Map<ProcessState, Long> after = metrics.processesByState();
                assertEquals(before.get(ProcessState.CREATED), after.get(ProcessState.CREATED));
                assertEquals(before.get(ProcessState.FINISHED) + 3, after.get(ProcessState.FINISHED));
                TaskQueueState drained = metrics.taskQueue();
                assertEquals(0, drained.ready());
                assertEquals(1, drained.consumers(), "the worker consumes");
                assertEquals(3, worker.stepsRun());
            }
            for (StepTiming t : heard) {
                assertEquals(StepTiming.Outcome.COMMITTED, t.outcome(), t.toString());
                assertEquals(0, t.step());
                assertTrue(t.took().compareTo(Duration.ZERO) > 0, t.toString());
            }
            assertEquals(0, metrics.taskQueue().consumers(), "a closed worker consumes no more");
        }
    }

    @Test
    void aCalculationThatTakesItsOutputsFromTheCacheCountsAsAHit() {
        try (Engine engine = EngineFixture.open(new Engine.Config(
                DatabaseConfig.of(db.jdbcUrl()).withPoolSize(4),
                null,
                "cairn",
                null,
                EngineFixture.plugins(),
                CachingPolicy.enabledFor("test.*")))) {
            assertEquals(0, engine.metrics().cacheHits());
            engine.launcher().run(TestProcesses.ADD, inputs(20, 22));
            assertEquals(0, engine.metrics().cacheHits(), "the first run had nothing to take");
            engine.launcher().run(TestProcesses.ADD, inputs(20, 22));
            assertEquals(1, engine.metrics().cacheHits());
            assertThrows(IllegalStateException.class, () -> engine.metrics().taskQueue(), "no broker, no queue");
        }
    }

    private static Launcher.Launch add(long x, long y) {
        return new Launcher.Launch(TestProcesses.ADD, inputs(x, y));
    }

    private static Inputs inputs(long x, long y) {
        return Inputs.of(TestProcesses.X, new IntData(x), TestProcesses.Y, new IntData(y));
    }
}
