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
        assertEquals(
                EnumSet.of(ProcessState.RUNNING, ProcessState.EXCEPTED, ProcessState.KILLED),
                ProcessState.CREATED.next());
        assertTrue(ProcessState.RUNNING.canMoveTo(ProcessState.WAITING));
        assertTrue(ProcessState.WAITING.canMoveTo(ProcessState.RUNNING));
        assertFalse(ProcessState.WAITING.canMoveTo(ProcessState.FINISHED));
        for (ProcessState terminal : EnumSet.of(ProcessState.FINISHED, ProcessState.EXCEPTED, ProcessState.KILLED)) {
            assertTrue(terminal.isTerminal());
            assertTrue(terminal.next().isEmpty());
        }
    }

    @Test
    void aRefusedMoveNamesBothEnds() {
        var e = assertThrows(IllegalStateException.class, () -> ProcessState.FINISHED.moveTo(ProcessState.RUNNING));
        assertEquals("a process cannot go from FINISHED to RUNNING (FINISHED is final)", e.getMessage());
    }

    @Test
    void statesRoundTripThroughTheDatabaseValue() {
        for (ProcessState s : ProcessState.values()) {
            assertEquals(s, ProcessState.fromDbValue(s.dbValue()));
        }
    }
}
