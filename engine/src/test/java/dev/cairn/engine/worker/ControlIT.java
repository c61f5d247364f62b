package dev.cairn.engine.worker;

import static dev.cairn.engine.testing.EngineFixture.count;
import static dev.cairn.engine.testing.TestProcesses.ADD;
import static dev.cairn.engine.testing.TestProcesses.SLOW;
import static dev.cairn.engine.testing.TestProcesses.X;
import static dev.cairn.engine.testing.TestProcesses.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.Engine;
import dev.cairn.engine.events.ControlSignal;
import dev.cairn.engine.internal.broker.Broadcasts;
import dev.cairn.engine.internal.broker.BrokerConnection;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.TestEngine;
import dev.cairn.engine.testing.TestProcesses;
import dev.cairn.engine.testing.Waits;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkTriple;
import dev.cairn.storage.graph.ProcessNode;

/**
 * Pause, play and kill of a process whose step is running on a worker, and of a process
 * whose task sits in the queue with no worker to take it. Each test starts the worker it
 * needs (in this JVM) and stops it, so the queue is empty between tests.
 */
class ControlIT {

    @RegisterExtension
    static final TestEngine fixture = TestEngine.withBroker();

    private static Worker startWorker() {
        return fixture.engine()
                .startWorker(new Worker.Settings(4, Duration.ofSeconds(5), OutboxRelay.Settings.defaults()));
    }

    private static ProcessNode reload(long id) {
        return (ProcessNode) fixture.engine().graph().load(id);
    }

    private static void awaitState(long id, String state, Duration timeout) throws InterruptedException {
        Waits.until(
                timeout,
                "process " + id + " to be " + state,
                () -> state.equals(reload(id).processState()));
    }

    /** True while a transaction holds the process's row lock: a worker is running its step. */
    private static boolean rowLocked(long id) {
        try (Connection c = fixture.db().connect()) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                s.execute("SELECT 1 FROM process WHERE node_id = " + id + " FOR UPDATE NOWAIT");
                return false;
            } catch (SQLException e) {
                if ("55P03".equals(e.getSQLState())) {
                    return true;
                }
                throw e;
            } finally {
                c.rollback();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitRunning(long id) throws InterruptedException {
        Waits.until(Duration.ofSeconds(10), "a worker to run the step of process " + id, () -> rowLocked(id));
    }

    private static List<LinkTriple> outgoing(long id) {
        return fixture.engine().graph().outgoing(reload(id));
    }

    private static long result(long id) {
        return ((IntData) fixture.engine()
                        .graph()
                        .load(outgoing(id).stream()
                                .filter(l -> l.label().equals("result"))
                                .findFirst()
                                .orElseThrow()
                                .nodeId()))
                .value();
    }

    @Test
    void killingARunningStepInterruptsItAndStoresNothingOfIt() throws Exception {
        try (Worker worker = startWorker()) {
            // a few times: the kill signal and the kill's row lock race against the interrupted step
            for (int round = 0; round < 5; round++) {
                long nodesBefore = count(fixture.db(), "SELECT count(*) FROM node");
                ProcessNode slow = fixture.engine().launcher().submit(SLOW, Inputs.of(X, new IntData(5000)));
                awaitRunning(slow.id());
                Thread.sleep(200);
                long start = System.nanoTime();
                List<Long> killed = fixture.engine().control().kill(slow.id());
                long killMs = (System.nanoTime() - start) / 1_000_000;
                ProcessNode node = reload(slow.id());
                assertEquals(
                        List.of(slow.id()),
                        killed,
                        "round " + round + ": the kill killed it; it is " + node.processState() + ", exception "
                                + node.exception());
                assertEquals("killed", node.processState());
                assertTrue(
                        killMs < 2000,
                        "the running step was interrupted, not waited for: the kill took " + killMs
                                + " ms of the step's 5000");
                // let the interrupted step's transaction end, and anything it might still write land
                Waits.until(Duration.ofSeconds(5), "the step to let go of the row", () -> !rowLocked(slow.id()));
                Thread.sleep(300);
                node = reload(slow.id());
                assertEquals("killed", node.processState());
                assertTrue(node.isSealed());
                assertNull(node.exitStatus());
                assertNull(node.exception(), "the interrupted step recorded no failure");
                assertTrue(outgoing(slow.id()).isEmpty(), "no output of the killed step: " + outgoing(slow.id()));
                assertEquals(
                        nodesBefore + 2,
                        count(fixture.db(), "SELECT count(*) FROM node"),
                        "the process and its input, nothing else");
                assertEquals(
                        0,
                        count(
                                fixture.db(),
                                "SELECT count(*) FROM log WHERE node_id = " + slow.id() + " AND level_name = 'ERROR'"),
                        "no error logged for it");
            }
            ProcessNode after =
                    fixture.engine().launcher().submit(ADD, Inputs.of(X, new IntData(2), Y, new IntData(3)));
            awaitState(after.id(), "finished", Duration.ofSeconds(10));
            assertEquals(5, result(after.id()), "the worker runs on after the interrupted steps");
        }
        assertEquals(0, count(fixture.db(), "SELECT count(*) FROM outbox"));
    }

    /**
     * A kill signals the process's step, then waits for its row. A task delivered just after the signal
     * found no step running starts its step before the kill takes the row: the step must end the process
     * KILLED at once, not run to its end while the kill waits. The signal is sent here alone, before the
     * task can start (the worker's one slot is busy), as it reaches a worker in that race.
     */
    @Test
    void aStepThatBeginsJustAfterItsKillSignalEndsKilledWithoutRunning() throws Exception {
        try (Worker worker = fixture.engine()
                        .startWorker(new Worker.Settings(1, Duration.ofSeconds(5), OutboxRelay.Settings.defaults()));
                BrokerConnection connection =
                        BrokerConnection.open(EngineFixture.amqpUri(fixture.broker()), "cairn", "killer");
                Broadcasts broadcasts = new Broadcasts(connection)) {
            ProcessNode busy = fixture.engine().launcher().submit(SLOW, Inputs.of(X, new IntData(1500)));
            awaitRunning(busy.id());
            ProcessNode next = fixture.engine().launcher().submit(SLOW, Inputs.of(X, new IntData(60_000)));
            broadcasts.publish(ControlSignal.kill(next.id()));
            awaitState(busy.id(), "finished", Duration.ofSeconds(20));
            long freed = System.nanoTime();
            awaitState(next.id(), "killed", Duration.ofSeconds(20));
            System.out.printf(
                    "ControlIT: the step begun after its kill signal ended the process %d ms after the slot freed%n",
                    (System.nanoTime() - freed) / 1_000_000);
            ProcessNode node = reload(next.id());
            assertTrue(node.isSealed());
            assertNull(node.exception());
            assertTrue(outgoing(next.id()).isEmpty(), "it never ran: " + outgoing(next.id()));
            assertEquals(
                    List.of(next.id()),
                    fixture.engine().control().kill(next.id()),
                    "the kill that follows finds it killed");
        }
    }

    @Test
    void pausingARunningStepLetsItCommitThenHoldsTheProcessUntilPlayed() throws Exception {
        try (Worker worker = startWorker()) {
            ProcessNode chain = fixture.engine()
                    .launcher()
                    .submit(TestProcesses.SlowThenChild.DEFINITION, Inputs.of(X, new IntData(1500)));
            awaitRunning(chain.id());
            long start = System.nanoTime();
            fixture.engine().control().pause(chain.id());
            long pauseMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue(pauseMs > 500, "pause waited for the running step to commit (" + pauseMs + " ms)");
            ProcessNode node = reload(chain.id());
            assertTrue(node.isPaused());
            assertEquals("waiting", node.processState(), "the running step committed: it waits for its child");
            long child = count(fixture.db(), "SELECT node_id FROM process WHERE parent_id = " + chain.id());
            awaitState(child, "finished", Duration.ofSeconds(10));
            Thread.sleep(1500);
            assertEquals("waiting", reload(chain.id()).processState(), "a paused parent does not go on");
            assertEquals(
                    1,
                    count(
                            fixture.db(),
                            "SELECT count(*) FROM process WHERE node_id = " + chain.id()
                                    + " AND runnable AND paused AND awaiting = 0"),
                    "its continue task is due, held by the pause");
            fixture.engine().control().play(chain.id());
            awaitState(chain.id(), "finished", Duration.ofSeconds(10));
            node = reload(chain.id());
            assertEquals(0, node.exitStatus());
            assertFalse(node.isPaused());
            assertEquals(1501, result(chain.id()));
        }
    }

    @Test
    void aQueuedProcessPausedBeforeAnyWorkerRunsDoesNotProgressUntilPlayed() throws Exception {
        ProcessNode add = fixture.engine().launcher().submit(ADD, Inputs.of(X, new IntData(1), Y, new IntData(2)));
        fixture.engine().control().pause(add.id());
        assertTrue(reload(add.id()).isPaused());
        try (Worker worker = startWorker()) {
            Waits.until(Duration.ofSeconds(10), "the worker to take the queued task", () -> worker.stepsRun() >= 1);
            Thread.sleep(1000);
            ProcessNode node = reload(add.id());
            assertEquals("created", node.processState(), "a paused process does not run");
            assertTrue(outgoing(add.id()).isEmpty());
            fixture.engine().control().play(add.id());
            awaitState(add.id(), "finished", Duration.ofSeconds(10));
            node = reload(add.id());
            assertEquals(0, node.exitStatus());
            assertFalse(node.isPaused());
            assertEquals(3, result(add.id()));
        }
    }

    @Test
    void aQueuedProcessKilledByAnEngineWithoutBrokerIsSkippedByTheWorker() throws Exception {
        long nodesBefore = count(fixture.db(), "SELECT count(*) FROM node");
        ProcessNode add = fixture.engine().launcher().submit(ADD, Inputs.of(X, new IntData(1), Y, new IntData(2)));
        try (Engine local = EngineFixture.local(fixture.db())) {
            assertEquals(List.of(add.id()), local.control().kill(add.id()));
        }
        assertEquals("killed", reload(add.id()).processState());
        try (Worker worker = startWorker()) {
            Waits.until(Duration.ofSeconds(10), "the worker to take the queued task", () -> worker.stepsRun() >= 1);
            ProcessNode later =
                    fixture.engine().launcher().submit(ADD, Inputs.of(X, new IntData(3), Y, new IntData(4)));
            awaitState(later.id(), "finished", Duration.ofSeconds(10));
        }
        ProcessNode node = reload(add.id());
        assertEquals("killed", node.processState());
        assertTrue(node.isSealed());
        assertNull(node.exitStatus());
        assertTrue(outgoing(add.id()).isEmpty(), "the killed process never ran");
        // the killed add and its 2 inputs; the later add, its 2 inputs and its result
        assertEquals(nodesBefore + 3 + 4, count(fixture.db(), "SELECT count(*) FROM node"));
        assertEquals(0, count(fixture.db(), "SELECT count(*) FROM outbox"));
    }
}
