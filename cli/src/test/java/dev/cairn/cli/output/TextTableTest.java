package dev.cairn.cli.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class TextTableTest {

    private static final Style PLAIN = new Style(false);

    @Test
    void padsColumnsToTheirWidestCellAndRightAlignsNumbers() {
        List<String> lines = TextTable.of("PK", "LABEL", "STATE")
                .alignRight("PK")
                .row(7, "relax", "finished")
                .row(1234, "scf", "waiting")
                .render(200, PLAIN);
        assertEquals(List.of("  PK  LABEL  STATE", "   7  relax  finished", "1234  scf    waiting"), lines);
    }

    @Test
    void narrowsTheWidestColumnFirstToFitTheWidth() {
        String description = "a very long description that would wrap an eighty column terminal twice over";
        List<String> lines = TextTable.of("PK", "DESCRIPTION", "STATE")
                .row(1, description, "finished")
                .render(40, PLAIN);
        for (String line : lines) {
            assertTrue(line.codePointCount(0, line.length()) <= 40, line);
        }
        assertTrue(lines.get(1).contains("…"), lines.get(1));
        assertTrue(lines.get(1).endsWith("finished"), "the narrow columns keep their cells: " + lines.get(1));
    }

    @Test
    void keepsEveryCellOnOneLineAndCountsCodePointsNotChars() {
        List<String> lines = TextTable.of("A", "B").row("x\ny", "𝔸𝔹").render(80, PLAIN);
        assertEquals("x y  𝔸𝔹", lines.get(1));
    }

    @Test
    void refusesARowOfTheWrongLength() {
        TextTable table = TextTable.of("A", "B");
        assertThrows(IllegalArgumentException.class, () -> table.row("only one"));
    }
}
