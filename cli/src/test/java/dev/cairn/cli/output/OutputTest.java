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
}
