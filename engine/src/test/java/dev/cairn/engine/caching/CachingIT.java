package dev.cairn.engine.caching;

import static dev.cairn.engine.testing.TestProcesses.ADD;
import static dev.cairn.engine.testing.TestProcesses.RESULT;
import static dev.cairn.engine.testing.TestProcesses.X;
import static dev.cairn.engine.testing.TestProcesses.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.engine.testing.TestEngine;
import dev.cairn.engine.testing.TestProcesses;
import dev.cairn.storage.graph.BoolData;
import dev.cairn.storage.graph.CachingExtras;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkTriple;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.ProcessNode;

/** Calculations found by hash and reused instead of run again. */
class CachingIT {

    @RegisterExtension
    static final TestEngine fixture =
            TestEngine.local().withCaching(new CachingPolicy(false, List.of("test.add*"), List.of()));

    private static ProcessResult add(long x, long y) {
        return fixture.engine().launcher().run(ADD, Inputs.of(X, new IntData(x), Y, new IntData(y)));
    }

    private static Object cachedFrom(ProcessNode node) {
        return ((ProcessNode) fixture.engine().graph().load(node.id())).extras().get(CachingExtras.CACHED_FROM);
    }

    @Test
    void aSecondIdenticalCalculationTakesCopiesOfTheFirstOnesOutputs() {
        ProcessResult first = add(1000, 1);
        ProcessResult second = add(1000, 1);
        assertNull(cachedFrom(first.node()));
        assertEquals(first.node().uuid().toString(), cachedFrom(second.node()));
        assertEquals(
                first.node().hash(),
                ((ProcessNode) fixture.engine().graph().load(second.node().id())).hash());
        assertTrue(second.isFinishedOk());
        IntData copy = second.get(RESULT);
        assertEquals(1001, copy.value());
        assertNotEquals(first.get(RESULT).uuid(), copy.uuid(), "the output is a copy, not the same node");
        List<LinkTriple> out = fixture.engine().graph().outgoing(second.node());
        assertEquals(
                List.of(LinkType.CREATE), out.stream().map(LinkTriple::type).toList());
        assertEquals(
                List.of("x", "y"),
                fixture.engine().graph().incoming(second.node()).stream()
                        .map(LinkTriple::label)
                        .toList());
    }

    @Test
    void differentInputsMissAndExplainSaysWhichDiffers() {
        add(2000, 1);
        ProcessResult other = add(2000, 2);
        assertNull(cachedFrom(other.node()));
        String hit = fixture.engine().launcher().explainCache(ADD, Inputs.of(X, new IntData(2000), Y, new IntData(1)));
        assertTrue(hit.startsWith("hit: "), hit);
        String miss = fixture.engine().launcher().explainCache(ADD, Inputs.of(X, new IntData(2000), Y, new IntData(3)));
        assertTrue(miss.startsWith("miss: the nearest candidate") && miss.contains("'y' differs"), miss);
        assertFalse(miss.contains("'x'"), miss);
    }

    @Test
    void aLaunchCanTurnCachingOffForItself() {
        add(3000, 1);
        ProcessResult again = fixture.engine()
                .launcher()
                .run(ADD, Inputs.of(X, new IntData(3000), Y, new IntData(1)).useCache(false));
        assertNull(cachedFrom(again.node()));
    }

    @Test
    void typesTheyPolicyLeavesOutAreNeverLookedUp() {
        fixture.engine().launcher().run(TestProcesses.ADD_TWICE, Inputs.of(X, new IntData(4000), Y, new IntData(1)));
        ProcessResult again = fixture.engine()
                .launcher()
                .run(TestProcesses.ADD_TWICE, Inputs.of(X, new IntData(4000), Y, new IntData(1)));
        assertNull(cachedFrom(again.node()), "workfunctions are never cached");
        // but the calcfunctions it called are: test.add is enabled
        long cachedCalls = fixture.engine().graph().outgoing(again.node()).stream()
                .filter(l -> l.type() == LinkType.CALL_CALC)
                .filter(l -> ((ProcessNode) fixture.engine().graph().load(l.nodeId()))
                        .extras()
                        .containsKey(CachingExtras.CACHED_FROM))
                .count();
        assertEquals(2, cachedCalls);
    }

    @Test
    void anExitCodeThatInvalidatesCachingKeepsTheNodeFromBeingASource() {
        ProcessResult failed = fixture.engine()
                .launcher()
                .run(TestProcesses.ADD_NON_NEGATIVE, Inputs.of(X, new IntData(-5000), Y, new IntData(1)));
        assertEquals(300, failed.node().exitStatus());
        ProcessResult again = fixture.engine()
                .launcher()
                .run(TestProcesses.ADD_NON_NEGATIVE, Inputs.of(X, new IntData(-5000), Y, new IntData(1)));
        assertNull(cachedFrom(again.node()));
    }

    @Test
    void aNodeMarkedInvalidIsNoLongerASource() {
        ProcessResult first = add(6000, 1);
        fixture.engine().launcher().invalidateCache(first.node());
        ProcessResult second = add(6000, 1);
        assertNull(cachedFrom(second.node()));
        assertEquals(second.node().uuid().toString(), cachedFrom(add(6000, 1).node()), "the valid one serves");
    }

    @Test
    void rerunningAFailedWorkChainReusesTheCalculationsThatFinished() {
        ProcessResult failed = fixture.engine()
                .launcher()
                .run(
                        TestProcesses.ChildThenFail.DEFINITION,
                        Inputs.create()
                                .put(X, new IntData(7000))
                                .put(Y, new IntData(1))
                                .put(TestProcesses.FAIL_AFTER, new BoolData(true)));
        assertEquals("excepted", failed.node().processState());
        ProcessResult rerun = fixture.engine()
                .launcher()
                .run(
                        TestProcesses.ChildThenFail.DEFINITION,
                        Inputs.create().put(X, new IntData(7000)).put(Y, new IntData(1)));
        assertTrue(rerun.isFinishedOk(), String.valueOf(rerun.node().exception()));
        assertEquals(7001, rerun.get(RESULT).value());
        ProcessNode child = (ProcessNode) fixture.engine()
                .graph()
                .load(fixture.engine().graph().outgoing(rerun.node()).stream()
                        .filter(l -> l.type() == LinkType.CALL_CALC)
                        .findFirst()
                        .orElseThrow()
                        .nodeId());
        assertTrue(child.extras().containsKey(CachingExtras.CACHED_FROM), "the child add was not run again");
    }

    @Test
    void aChildTakenFromTheCacheWhenSubmittedEndsAtOnceAndItsParentGoesOnInTheSameStep() throws Exception {
        ProcessResult first = fixture.engine()
                .launcher()
                .run(
                        TestProcesses.ChildThenAdd.DEFINITION,
                        Inputs.create().put(X, new IntData(8000)).put(Y, new IntData(1)));
        ProcessResult again = fixture.engine()
                .launcher()
                .run(
                        TestProcesses.ChildThenAdd.DEFINITION,
                        Inputs.create().put(X, new IntData(8000)).put(Y, new IntData(1)));
        assertTrue(again.isFinishedOk(), String.valueOf(again.node().exception()));
        assertEquals(8002, again.get(RESULT).value());
        ProcessNode child = (ProcessNode) fixture.engine()
                .graph()
                .load(fixture.engine().graph().outgoing(again.node()).stream()
                        .filter(l -> l.type() == LinkType.CALL_CALC && l.label().equals("CALL"))
                        .findFirst()
                        .orElseThrow()
                        .nodeId());
        assertTrue(child.isSealed() && "finished".equals(child.processState()));
        assertNotNull(child.extras().get(CachingExtras.CACHED_FROM));
        assertEquals(2, steps(first.node()), "the first run waited for its child: two steps");
        assertEquals(1, steps(again.node()), "the second took the child from the cache and went on at once");
    }

    @Test
    void childrenFromTheCacheKeepTheirPlaceAmongThoseThatRun() {
        add(9001, 1);
        add(9003, 1);
        ProcessResult r = fixture.engine()
                .launcher()
                .run(TestProcesses.AppendsInOrder.DEFINITION, Inputs.of(X, new IntData(9000)));
        assertTrue(r.isFinishedOk(), String.valueOf(r.node().exception()));
        assertEquals(1, r.get(RESULT).value(), "the context lists the four adds in the order they were submitted");
    }

    private static int steps(ProcessNode node) throws Exception {
        try (var c = fixture.engine().database().connection();
                var s = c.prepareStatement("SELECT step FROM process WHERE node_id = ?")) {
            s.setLong(1, node.id());
            try (var rs = s.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }
}
