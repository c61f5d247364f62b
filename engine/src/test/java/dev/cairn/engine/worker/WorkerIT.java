package dev.cairn.engine.worker;

import static dev.cairn.engine.testing.EngineFixture.count;
import static dev.cairn.engine.testing.TestProcesses.ADD;
import static dev.cairn.engine.testing.TestProcesses.X;
import static dev.cairn.engine.testing.TestProcesses.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.events.EventFilter;
import dev.cairn.engine.events.Subscription;
import dev.cairn.engine.launch.Launcher;
import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.testing.TestEngine;
import dev.cairn.engine.testing.TestProcesses;
import dev.cairn.engine.testing.Waits;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ProcessNode;

/** Submitting to a worker through RabbitMQ, and controlling what it runs. */
class WorkerIT {

    @RegisterExtension
    static final TestEngine fixture = TestEngine.withBroker().withWorker(4);

    private static String state(ProcessNode node) {
        return ((ProcessNode) fixture.engine().graph().load(node.id())).processState();
    }

    private static ProcessNode reload(ProcessNode node) {
        return (ProcessNode) fixture.engine().graph().load(node.id());
    }

    private static void awaitState(ProcessNode node, String state) throws InterruptedException {
        Waits.until(Duration.ofSeconds(30), node.describe() + " to be " + state, () -> state.equals(state(node)));
    }

    @Test
    void submittedFunctionsAndWorkChainsFinishOnTheWorker() throws Exception {
        ProcessNode add = fixture.engine().launcher().submit(ADD, Inputs.of(X, new IntData(1), Y, new IntData(2)));
        ProcessNode fan =
                fixture.engine().launcher().submit(TestProcesses.FanOut.DEFINITION, Inputs.of(X, new IntData(5)));
        awaitState(add, "finished");
        awaitState(fan, "finished");
        assertEquals(0, reload(fan).exitStatus());
        assertEquals(
                2 + 3 + 4 + 5 + 6,
                ((IntData) fixture.engine()
                                .graph()
                                .load(fixture.engine().graph().outgoing(reload(fan)).stream()
                                        .filter(l -> l.label().equals("result"))
                                        .findFirst()
                                        .orElseThrow()
                                        .nodeId()))
                        .value());
    }

    @Test
    void aBatchSubmitCommitsOnceAndEveryProcessFinishesExactlyOnce() throws Exception {
        List<Launcher.Launch> launches = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            launches.add(new Launcher.Launch(
                    TestProcesses.ChildThenAdd.DEFINITION, Inputs.of(X, new IntData(i), Y, new IntData(1))));
        }
        List<ProcessNode> nodes = fixture.engine().launcher().submitAll(launches);
        for (ProcessNode n : nodes) {
            awaitState(n, "finished");
        }
        String ids = nodes.stream()
                .map(n -> Long.toString(n.id()))
                .reduce((a, b) -> a + "," + b)
                .orElseThrow();
        // each work chain: 1 child submitted + 1 inline add = 2 CALL_CALC links, 1 RETURN
        assertEquals(
                400,
                count(
                        fixture.db(),
                        "SELECT count(*) FROM link WHERE type = 'call_calc' AND input_id IN (" + ids + ")"));
        assertEquals(
                200,
                count(fixture.db(), "SELECT count(*) FROM link WHERE type = 'return' AND input_id IN (" + ids + ")"));
    }

    @Test
    void stateChangesAreBroadcast() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        try (Subscription sub = fixture.engine()
                .subscribe(
                        EventFilter.all(),
                        change ->
                                seen.add(change.processId() + "." + change.to().dbValue()))) {
            Thread.sleep(200);
            ProcessNode wc = fixture.engine()
                    .launcher()
                    .submit(TestProcesses.ChildThenAdd.DEFINITION, Inputs.of(X, new IntData(1), Y, new IntData(1)));
            awaitState(wc, "finished");
            Waits.until(Duration.ofSeconds(5), "the finished broadcast", () -> seen.contains(wc.id() + ".finished"));
            assertTrue(seen.contains(wc.id() + ".waiting"), seen.toString());
        }
    }

    @Test
    void pauseAndPlayAQueuedAndAWaitingProcess() throws Exception {
        ProcessNode waiting =
                fixture.engine().launcher().submit(TestProcesses.WaitSlow.DEFINITION, Inputs.of(X, new IntData(1500)));
        awaitState(waiting, "waiting");
        fixture.engine().control().pause(waiting.id());
        assertTrue(reload(waiting).isPaused());
        Thread.sleep(2500);
        assertEquals("waiting", state(waiting), "a paused parent does not go on when its child finishes");
        fixture.engine().control().play(waiting.id());
        awaitState(waiting, "finished");
        assertEquals(0, reload(waiting).exitStatus());
    }

    @Test
    void killCascadesToChildrenAndWorksWithoutAWorkerHoldingTheProcess() throws Exception {
        ProcessNode parent =
                fixture.engine().launcher().submit(TestProcesses.WaitSlow.DEFINITION, Inputs.of(X, new IntData(3000)));
        awaitState(parent, "waiting");
        List<Long> killed = fixture.engine().control().kill(parent.id());
        assertEquals(2, killed.size(), "the parent and its running child: " + killed);
        assertEquals("killed", state(parent));
        long child = killed.get(1);
        Waits.until(
                Duration.ofSeconds(10),
                "the child killed",
                () -> "killed".equals(((ProcessNode) fixture.engine().graph().load(child)).processState()));
        assertThrows(ConflictException.class, () -> fixture.engine().control().pause(parent.id()));
    }

    @Test
    void controlOfAnUnknownProcessSaysSo() {
        var e = assertThrows(
                NotFoundException.class, () -> fixture.engine().control().pause(999_999));
        assertTrue(e.getMessage().contains("process 999999"), e.getMessage());
    }

    static long outbox() throws SQLException {
        return count(fixture.db(), "SELECT count(*) FROM outbox");
    }
}
