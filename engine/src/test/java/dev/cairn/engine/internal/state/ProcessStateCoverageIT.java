package dev.cairn.engine.internal.state;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import dev.cairn.engine.Engine;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.engine.testing.EngineFixture;

/**
 * The suite exercises every move of the process state table (as Temporal's state machines hold
 * their tests to every transition): a move added to the table and never made by a test fails
 * here. It runs last (junit-platform.properties orders classes by {@link Order}) and reads the
 * counts of every engine the suite's tests opened.
 */
@Order(Integer.MAX_VALUE)
class ProcessStateCoverageIT {

    @Test
    void everyMoveOfTheTableWasMadeByTheSuite() {
        List<Engine> engines = EngineFixture.opened();
        assertFalse(engines.isEmpty(), "no engine was opened through EngineFixture.open before this test");
        Map<ProcessState.Transition, Long> made = new HashMap<>();
        for (Engine engine : engines) {
            engine.transitionCounts().forEach((move, n) -> made.merge(move, n, Long::sum));
        }
        List<ProcessState.Transition> never = ProcessState.transitions().stream()
                .filter(move -> made.getOrDefault(move, 0L) == 0)
                .toList();
        assertTrue(
                never.isEmpty(),
                "moves of the state table no test made: " + never + " (counts of " + engines.size() + " engines: "
                        + made + ")");
    }
}
