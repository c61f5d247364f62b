package dev.cairn.engine.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;

import org.junit.jupiter.api.Test;

class ProcessStateTest {

    @Test
    void theTransitionTable() {
        EnumSet<ProcessState> onwards =
                EnumSet.of(ProcessState.WAITING, ProcessState.FINISHED, ProcessState.EXCEPTED, ProcessState.KILLED);
        assertEquals(onwards, ProcessState.CREATED.next());
        assertEquals(onwards, ProcessState.WAITING.next());
        assertFalse(ProcessState.WAITING.canMoveTo(ProcessState.CREATED));
        for (ProcessState terminal : EnumSet.of(ProcessState.FINISHED, ProcessState.EXCEPTED, ProcessState.KILLED)) {
            assertTrue(terminal.isTerminal());
            assertTrue(terminal.next().isEmpty());
        }
    }

    @Test
    void aRefusedMoveNamesBothEnds() {
        var e = assertThrows(IllegalStateException.class, () -> ProcessState.FINISHED.moveTo(ProcessState.WAITING));
        assertEquals("a process cannot go from FINISHED to WAITING (FINISHED is final)", e.getMessage());
        e = assertThrows(IllegalStateException.class, () -> ProcessState.WAITING.moveTo(ProcessState.CREATED));
        assertEquals(
                "a process cannot go from WAITING to CREATED; from WAITING it may go to [WAITING, FINISHED, EXCEPTED,"
                        + " KILLED]",
                e.getMessage());
    }

    @Test
    void anUnknownStoredStateNamesTheStates() {
        var e = assertThrows(IllegalStateException.class, () -> ProcessState.fromDbValue("running"));
        assertEquals(
                "unknown process state 'running'; the states are [created, waiting, finished, excepted, killed]",
                e.getMessage());
    }

    @Test
    void statesRoundTripThroughTheDatabaseValue() {
        for (ProcessState s : ProcessState.values()) {
            assertEquals(s, ProcessState.fromDbValue(s.dbValue()));
        }
    }
}
