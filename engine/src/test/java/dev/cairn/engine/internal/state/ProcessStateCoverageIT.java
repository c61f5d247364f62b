package dev.cairn.engine.internal.state;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import dev.cairn.engine.process.ProcessState;
import dev.cairn.engine.testing.RunsAlone;
import dev.cairn.engine.testing.StateMoves;

/**
 * The suite exercises every move of the process state table (as Temporal's state machines hold
 * their tests to every transition): a move added to the table and never made by a test fails
 * here. It runs after the module's other integration tests (in the JVM of the classes that run alone, last
 * there: junit-platform.properties orders classes by {@link Order}) and reads the moves of every engine
 * the suite's tests opened, in this JVM and in those that ended before it ({@link StateMoves}).
 */
@RunsAlone
@Order(Integer.MAX_VALUE)
class ProcessStateCoverageIT {

    @Test
    void everyMoveOfTheTableWasMadeByTheSuite() {
        Map<ProcessState.Transition, Long> made = StateMoves.made();
        assertFalse(made.isEmpty(), "no engine opened through EngineFixture.open made a move before this test");
        List<ProcessState.Transition> never = ProcessState.transitions().stream()
                .filter(move -> made.getOrDefault(move, 0L) == 0)
                .toList();
        assertTrue(never.isEmpty(), "moves of the state table no test made: " + never + " (counts: " + made + ")");
    }
}
