package dev.cairn.engine.internal.calcjob;

import static dev.cairn.engine.testing.TestProcesses.BASH_ADD;
import static dev.cairn.engine.testing.TestProcesses.X;
import static dev.cairn.engine.testing.TestProcesses.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.engine.Engine;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.JobOptions;
import dev.cairn.engine.scheduler.JobState;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.Waits;
import dev.cairn.engine.worker.Worker;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerConfig;
import dev.cairn.storage.testing.TestBroker;
import dev.cairn.storage.testing.TestDatabase;

/**
 * What the direct scheduler says of a waiting job is kept on its node by a worker's poller: the state,
 * the time of the check, rewritten unchanged only once it is stale, and each change of state as an event.
 */
class SchedulerStateIT {

    @RegisterExtension
    static final TestDatabase db = new TestDatabase();

    @RegisterExtension
    static final TestBroker broker = new TestBroker();

    @TempDir
    static Path tmp;

    private static final Duration BOUND = Duration.ofSeconds(60);

    static Engine engine;
    static Worker worker;
    static InstalledCode bash;

    @BeforeAll
    static void open() throws Exception {
        Container.init(tmp.resolve("objects"), ContainerConfig.defaults()).close();
        engine = EngineFixture.withBroker(db, broker, tmp.resolve("objects"));
        // the local transport's default poll interval: 0.1 s
        bash = EngineFixture.bashOn(
                engine, EngineFixture.localComputer(engine, "localhost", "core.direct", tmp.resolve("work"), Map.of()));
        worker = engine.startWorker(Worker.Settings.defaults(2));
    }

    @AfterAll
    static void close() {
        worker.close();
        engine.close();
    }

    @Test
    void theSchedulerStateIsRecordedPerPollRefreshedWhenStaleAndChangesAreEvents() throws Exception {
        Path go = tmp.resolve("go");
        ProcessNode node = engine.launcher()
                .submit(
                        BASH_ADD,
                        Inputs.create()
                                .put(CalcJobDefinition.CODE, bash)
                                .put(X, new IntData(1))
                                .put(Y, new IntData(2))
                                .jobOptions(JobOptions.defaults()
                                        .withText("while [ ! -e " + go + " ]; do sleep 0.05; done", "")));
        Waits.until(
                BOUND,
                "the job to be seen running",
                () -> "running".equals(job(node).attribute("scheduler_state")));
        OffsetDateTime first = lastCheck(job(node));
        assertEquals(1, schedulerEvents(node), "the change to running is one event");

        Waits.until(
                BOUND,
                "the check time to be written again",
                () -> !lastCheck(job(node)).equals(first));
        Duration between = Duration.between(first, lastCheck(job(node)));
        Duration refresh = Duration.ofMillis(100).multipliedBy(JobPoller.REFRESH_INTERVALS);
        assertTrue(
                between.compareTo(refresh) >= 0,
                "an unchanged state is rewritten after " + refresh + " (6 polls of 0.1 s), not at every poll: "
                        + between);
        assertEquals(1, schedulerEvents(node), "a rewrite of the same state is no event");

        Files.createFile(go);
        Waits.until(BOUND, "the job to end", () -> job(node).isSealed());
        CalcJobNode done = job(node);
        assertEquals("finished", done.processState(), String.valueOf(done.exception()));
        assertEquals("done", done.attribute("scheduler_state"), "the scheduler no longer lists the job");
        assertTrue(lastCheck(done).isAfter(first));
        assertEquals(2, schedulerEvents(node), "running, then done");

        try (Connection c = db.connect()) {
            assertTrue(SchedulerStates.record(c, Map.of(node.id(), JobState.QUEUED), Duration.ZERO)
                    .isEmpty());
        }
        assertEquals(done.attributes(), job(node).attributes(), "a sealed node's attributes do not change");
    }

    private static CalcJobNode job(ProcessNode node) {
        return (CalcJobNode) engine.graph().load(node.id());
    }

    private static OffsetDateTime lastCheck(CalcJobNode node) {
        // ISO 8601 with its offset, as AiiDA writes it
        return OffsetDateTime.parse((String) node.attribute("scheduler_lastchecktime"));
    }

    /** The events of the process that left it in its state: here, changes of its job's scheduler state. */
    private static long schedulerEvents(ProcessNode node) throws Exception {
        return EngineFixture.count(
                db,
                "SELECT count(*) FROM process_event WHERE process_id = " + node.id()
                        + " AND from_state = 'waiting' AND to_state = 'waiting'");
    }
}
