package dev.cairn.engine.internal.runtime;

import static dev.cairn.engine.testing.EngineFixture.count;
import static dev.cairn.engine.testing.TestProcesses.ADD;
import static dev.cairn.engine.testing.TestProcesses.ADD_TWICE;
import static dev.cairn.engine.testing.TestProcesses.FAIL;
import static dev.cairn.engine.testing.TestProcesses.RESULT;
import static dev.cairn.engine.testing.TestProcesses.X;
import static dev.cairn.engine.testing.TestProcesses.Y;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.InvalidInputsException;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.engine.testing.TestEngine;
import dev.cairn.engine.testing.TestProcesses;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkTriple;
import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.LogLevel;
import dev.cairn.storage.graph.LogStore;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.StrData;

/** Processes run in this JVM ({@code run}): the provenance they leave, failures, bad inputs. */
class RunIT {

    @RegisterExtension
    static final TestEngine fixture = TestEngine.local();

    @Test
    void calcfunctionCreatesItsOutputAndLinksItsInputs() {
        ProcessResult r = fixture.engine().launcher().run(ADD, Inputs.of(X, new IntData(2), Y, new IntData(3)));
        assertTrue(r.isFinishedOk(), r.node().describe() + " " + r.node().processState());
        assertEquals("test.add", r.node().processLabel());
        assertEquals(5, r.get(RESULT).value());
        assertTrue(r.node().isSealed());
        List<LinkTriple> in = fixture.engine().graph().incoming(r.node());
        assertEquals(List.of("x", "y"), in.stream().map(LinkTriple::label).toList());
        assertTrue(in.stream().allMatch(l -> l.type() == LinkType.INPUT_CALC));
        List<LinkTriple> out = fixture.engine().graph().outgoing(r.node());
        assertEquals(1, out.size());
        assertEquals(LinkType.CREATE, out.getFirst().type());
        assertEquals("result", out.getFirst().label());
    }

    @Test
    void workfunctionCallsCalcfunctionsAndReturnsTheirData() throws Exception {
        ProcessResult r = fixture.engine().launcher().run(ADD_TWICE, Inputs.of(X, new IntData(1), Y, new IntData(10)));
        assertTrue(r.isFinishedOk());
        assertEquals(21, r.get(RESULT).value());
        Map<LinkType, Long> out = fixture.engine().graph().outgoing(r.node()).stream()
                .collect(Collectors.groupingBy(LinkTriple::type, Collectors.counting()));
        assertEquals(Map.of(LinkType.CALL_CALC, 2L, LinkType.RETURN, 1L), out);
        assertTrue(new LogStore(fixture.engine().database())
                .forNode(r.node().id(), LogLevel.REPORT).stream()
                        .anyMatch(l -> l.message().equals("first sum 11")));
    }

    @Test
    void anExitCodeFinishesTheProcessWithItsStatusAndNoOutputs() {
        ProcessResult r = fixture.engine().launcher().run(ADD_TWICE, Inputs.of(X, new IntData(-5), Y, new IntData(1)));
        assertEquals("finished", r.node().processState());
        assertEquals(300, r.node().exitStatus());
        assertEquals("x + y is negative: -4", r.node().exitMessage());
        assertTrue(r.outputs().isEmpty());
    }

    @Test
    void workChainWaitsForItsChildAndLinksEverything() {
        ProcessResult r = fixture.engine()
                .launcher()
                .run(TestProcesses.ChildThenAdd.DEFINITION, Inputs.of(X, new IntData(4), Y, new IntData(5)));
        assertTrue(r.isFinishedOk(), String.valueOf(r.node().exception()));
        assertEquals(14, r.get(RESULT).value());
        List<LinkTriple> out = fixture.engine().graph().outgoing(r.node());
        assertEquals(2, out.stream().filter(l -> l.type() == LinkType.CALL_CALC).count(), out.toString());
        assertEquals(1, out.stream().filter(l -> l.type() == LinkType.RETURN).count(), out.toString());
    }

    @Test
    void fanOutAppendsEveryChildInOrder() {
        ProcessResult r =
                fixture.engine().launcher().run(TestProcesses.FanOut.DEFINITION, Inputs.of(X, new IntData(6)));
        assertTrue(r.isFinishedOk(), String.valueOf(r.node().exception()));
        assertEquals(0 + 1 + 2 + 3 + 4 + 5 + 2 * 6, r.get(RESULT).value());
        List<String> callLabels = fixture.engine().graph().outgoing(r.node()).stream()
                .filter(l -> l.type() == LinkType.CALL_WORK)
                .map(LinkTriple::label)
                .toList();
        assertEquals(List.of("child_0", "child_1", "child_2", "child_3", "child_4", "child_5"), callLabels);
    }

    @Test
    void annotatedMethodsRunAsCalcfunctionsAndWorkfunctions() {
        var registry = fixture.engine().plugins();
        ProcessResult times = fixture.engine()
                .launcher()
                .run(registry.get("test.annotated.times"), Inputs.create().put("x", new IntData(7)));
        assertEquals(14, ((IntData) times.outputs().get("result")).value(), "the optional factor defaults to 2");
        ProcessResult split = fixture.engine()
                .launcher()
                .run(registry.get("test.annotated.split"), Inputs.create().put("x", new IntData(7)));
        assertEquals(
                Map.of("half", 3L, "rest", 1L),
                Map.of(
                        "half",
                        ((IntData) split.outputs().get("half")).value(),
                        "rest",
                        ((IntData) split.outputs().get("rest")).value()));
        ProcessResult twice = fixture.engine()
                .launcher()
                .run(registry.get("test.annotated.times_twice"), Inputs.create().put("x", new IntData(5)));
        assertTrue(twice.isFinishedOk(), String.valueOf(twice.node().exception()));
        assertEquals(30, ((IntData) twice.outputs().get("result")).value());
        assertEquals(
                2,
                fixture.engine().graph().outgoing(twice.node()).stream()
                        .filter(l -> l.type() == LinkType.CALL_CALC)
                        .count());
        var bad = assertThrows(
                InvalidInputsException.class,
                () -> fixture.engine()
                        .launcher()
                        .run(
                                registry.get("test.annotated.times"),
                                Inputs.create().put("factor", new IntData(1))));
        assertTrue(bad.getMessage().contains("required input 'x' (IntData) is missing"), bad.getMessage());
    }

    @Test
    void aFailingFunctionIsExceptedWithItsTraceback() throws Exception {
        ProcessResult r = fixture.engine().launcher().run(FAIL, Inputs.of(X, new IntData(7)));
        ProcessNode node = r.node();
        assertEquals("excepted", node.processState());
        assertTrue(node.isSealed());
        assertNotNull(node.exception());
        assertTrue(node.exception().contains("test.fail always fails (x = 7)"), node.exception());
        assertTrue(node.exception().contains("at dev.cairn"), "a stack trace: " + node.exception());
        assertTrue(fixture.engine().graph().outgoing(node).isEmpty());
    }

    @Test
    void aFailingStepLeavesNothingHalfWritten() throws Exception {
        long nodesBefore = count(fixture.db(), "SELECT count(*) FROM node");
        ProcessResult r =
                fixture.engine().launcher().run(TestProcesses.FailInStep.DEFINITION, Inputs.of(X, new IntData(1)));
        assertEquals("excepted", r.node().processState());
        assertTrue(r.node().exception().contains("failing after a calcfunction ran"));
        // the work chain and its input: the calcfunction that ran in the failed step and its output are gone
        assertEquals(nodesBefore + 2, count(fixture.db(), "SELECT count(*) FROM node"));
        assertTrue(fixture.engine().graph().outgoing(r.node()).isEmpty());
        assertEquals(0, count(fixture.db(), "SELECT count(*) FROM outbox"));
    }

    @Test
    void invalidInputsAreRefusedNamingThePortBeforeAnythingIsStored() throws Exception {
        long nodesBefore = count(fixture.db(), "SELECT count(*) FROM node");
        var e = assertThrows(
                InvalidInputsException.class,
                () -> fixture.engine()
                        .launcher()
                        .run(ADD, Inputs.create().put(X, new IntData(1)).put("z", new IntData(2))));
        assertTrue(e.getMessage().contains("required input 'y' (IntData) is missing"), e.getMessage());
        assertTrue(e.getMessage().contains("'z' is not an input; valid inputs are [x, y]"), e.getMessage());
        var wrongType = assertThrows(
                InvalidInputsException.class,
                () -> fixture.engine()
                        .launcher()
                        .run(ADD, Inputs.create().put("x", new IntData(1)).put("y", new StrData("two"))));
        assertTrue(wrongType.getMessage().contains("input 'y': expected IntData, got StrData"), wrongType.getMessage());
        assertEquals(nodesBefore, count(fixture.db(), "SELECT count(*) FROM node"));
    }

    @Test
    void anElseIfBranchRunsAndMayEndTheWorkChainEarly() {
        for (int x : new int[] {-3, 0, 4}) {
            ProcessResult r =
                    fixture.engine().launcher().run(TestProcesses.Classify.DEFINITION, Inputs.of(X, new IntData(x)));
            assertTrue(r.isFinishedOk(), r.node().describe() + " " + r.node().processState());
            String branch = r.get(TestProcesses.Classify.BRANCH).value();
            assertEquals(x < 0 ? "negative" : x == 0 ? "zero" : "positive", branch);
            // returnOk in the zero branch ends the chain before its last step
            assertEquals(x != 0, r.get(TestProcesses.Classify.LAST_STEP) != null, "the last step ran for x = " + x);
        }
    }

    @Test
    void aWorkChainWaitsOnceForEachRoundOfChildren() {
        ProcessResult r = fixture.engine()
                .launcher()
                .run(TestProcesses.TwoRounds.DEFINITION, Inputs.of(X, new IntData(1), Y, new IntData(10)));
        assertTrue(r.isFinishedOk(), r.node().describe() + " " + r.node().processState());
        assertEquals(21, r.get(RESULT).value());
        assertEquals(
                2,
                fixture.engine().graph().outgoing(r.node()).stream()
                        .filter(l -> l.type() == LinkType.CALL_CALC)
                        .count());
    }
}
