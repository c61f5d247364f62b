package dev.cairn.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

class OutputTest {

    private static String endLineThenNote(Terminal terminal) {
        StringWriter err = new StringWriter();
        Output out = new Output(new PrintWriter(new StringWriter()), new PrintWriter(err), terminal, false);
        try (Progress progress = out.progress("Running", 10)) {
            out.endLine();
            out.note("stopped waiting");
        }
        return err.toString();
    }

    @Test
    void onATerminalEndLineClearsTheBarSoTheMessageTakesItsPlace() {
        String err = endLineThenNote(new Terminal(true, true, 80));
        assertTrue(err.startsWith(Progress.CLEAR_LINE + "Running [...."), err);
        assertTrue(
                err.endsWith(Progress.CLEAR_LINE + "stopped waiting" + System.lineSeparator() + Progress.CLEAR_LINE),
                "the bar's line cleared, the message in its place: " + err);
        assertFalse(err.contains("0/10" + System.lineSeparator()), "no new line after the bar: " + err);
    }

    @Test
    void elsewhereEndLineBeginsANewLineAndNoBarIsDrawn() {
        assertEquals(
                System.lineSeparator() + "stopped waiting" + System.lineSeparator(),
                endLineThenNote(new Terminal(false, false, 80)));
    }

    @Test
    void onATerminalTheTimeOfWorkThatTellsNothingMovesEachSecond() throws Exception {
        StringWriter err = new StringWriter();
        Output out = new Output(
                new PrintWriter(new StringWriter()), new PrintWriter(err), new Terminal(true, true, 80), false);
        try (Progress progress = out.progress("maintaining", 0)) {
            Thread.sleep(2_400);
        }
        String drawn = err.toString();
        assertTrue(drawn.contains(Progress.CLEAR_LINE + "maintaining 0 so far 0 s"), drawn);
        assertTrue(drawn.contains(Progress.CLEAR_LINE + "maintaining 0 so far 1 s"), drawn);
        assertTrue(drawn.contains(Progress.CLEAR_LINE + "maintaining 0 so far 2 s"), drawn);
        assertTrue(drawn.endsWith(Progress.CLEAR_LINE), "cleared at its close: " + drawn);
        Thread.sleep(1_200);
        assertEquals(drawn, err.toString(), "nothing drawn after the close");
    }
}
