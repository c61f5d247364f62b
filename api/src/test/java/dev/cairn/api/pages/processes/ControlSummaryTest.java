package dev.cairn.api.pages.processes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.cairn.api.processes.ControlReport;
import dev.cairn.api.processes.ControlResult;
import dev.cairn.api.processes.ProcessControlService;

class ControlSummaryTest {

    @Test
    void aRefusedProcessIsNamedByItsWholeUuid() {
        // two processes of one run: their uuids begin with the same moment, so a prefix would not tell them apart
        UUID killed = UUID.fromString("01a23d67-f18a-7522-b5d8-294bdc251f4d");
        UUID finished = UUID.fromString("01a23d67-f18a-7686-8448-88dc2475fa38");
        ControlReport report = new ControlReport(
                "kill",
                1,
                false,
                List.of(
                        new ControlResult(killed, "test.gate", "killed", null, List.of(killed)),
                        new ControlResult(finished, "test.gate", "refused", "it is finished", null)));
        assertEquals(
                "Killed 1 process; refused 1: 01a23d67-f18a-7686-8448-88dc2475fa38 it is finished.",
                ProcessListController.summary(ProcessControlService.Action.KILL, report));
    }
}
