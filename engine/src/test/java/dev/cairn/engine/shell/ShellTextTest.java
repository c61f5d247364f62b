package dev.cairn.engine.shell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.BoolData;
import dev.cairn.storage.graph.FloatData;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.StrData;

/** The text rules of shell jobs: placeholders, values as Python spells them, link labels, command lines. */
class ShellTextTest {

    @Test
    void placeholdersNameInputsAndLeaveOtherBracesAlone() {
        assertEquals(List.of("file"), Placeholders.names("{file}"));
        assertEquals(List.of("a", "b", "a"), Placeholders.names("--in={a},{b}:{a}"));
        assertEquals(List.of(), Placeholders.names("{print $1}"));
        assertEquals(List.of(), Placeholders.names("{{file}}"));
        assertEquals(List.of(), Placeholders.names("{1x} {} {x-y}"));
        assertEquals("{print $1}", Placeholders.fill("{print $1}", n -> "?"));
        assertEquals("{file}", Placeholders.fill("{{file}}", n -> "?"));
        assertEquals("--in=data.txt,3", Placeholders.fill("--in={a},{b}", n -> n.equals("a") ? "data.txt" : "3"));
        assertEquals("}{", Placeholders.fill("}}{{", n -> "?"));
    }

    @Test
    void valuesAreSpeltAsPythonsStrSpellsThem() {
        assertEquals("3", PythonText.of(new IntData(3)));
        assertEquals("-7", PythonText.of(new IntData(-7)));
        assertEquals("True", PythonText.of(new BoolData(true)));
        assertEquals("False", PythonText.of(new BoolData(false)));
        assertEquals("a b", PythonText.of(new StrData("a b")));
        // Python: repr(2.5), 1e-05, 0.0001, 1e+16, 1234567890123456.0, 0.1+0.2, -0.0, 100.0
        assertEquals("2.5", PythonText.ofDouble(2.5));
        assertEquals("1e-05", PythonText.ofDouble(1e-5));
        assertEquals("0.0001", PythonText.ofDouble(1e-4));
        assertEquals("1e+16", PythonText.ofDouble(1e16));
        assertEquals("1234567890123456.0", PythonText.ofDouble(1234567890123456.0));
        assertEquals("0.30000000000000004", PythonText.ofDouble(0.1 + 0.2));
        assertEquals("-0.0", PythonText.ofDouble(-0.0));
        assertEquals("100.0", PythonText.ofDouble(100));
        assertEquals("1.5e-10", PythonText.ofDouble(1.5e-10));
        assertEquals("-2.25e+20", PythonText.ofDouble(-2.25e20));
        assertEquals("0.5", PythonText.of(new FloatData(0.5)));
    }

    @Test
    void linkLabelsFollowAiidaShellAndCairnsPortNames() {
        assertEquals("results_json", LinkLabels.of("results.json"));
        assertEquals("aiida_shell_1_out", LinkLabels.of("1.out"));
        assertEquals("a_b_c", LinkLabels.of("a--b..c"));
        assertEquals("a_b", LinkLabels.of("a__b"));
        assertEquals("hidden", LinkLabels.of(".hidden"));
        assertEquals("out", LinkLabels.of("out."));
        assertEquals("file", LinkLabels.of("..."));
        assertEquals("out_txt_2", LinkLabels.unique("out-txt", Set.of("out_txt")));
        assertEquals("stdout_2", LinkLabels.unique("stdout", Set.of("stdout")));
        for (String name : List.of("results.json", "1.out", "a--b..c", ".hidden", "out.", "é.dat", "_x_")) {
            assertTrue(
                    LinkLabels.of(name).matches("[A-Za-z]([A-Za-z0-9_]*[A-Za-z0-9])?")
                            && !LinkLabels.of(name).contains("__"),
                    name + " -> " + LinkLabels.of(name));
        }
    }

    @Test
    void commandLinesSplitAsAShellSplitsThem() {
        assertEquals(List.of("wc", "-l", "{file}"), CommandLine.split("wc -l {file}"));
        assertEquals(List.of("awk", "{print $1}", "x y"), CommandLine.split("awk '{print $1}' \"x y\""));
        assertEquals(List.of("echo", "a\"b", "$HOME", "c d"), CommandLine.split("echo \"a\\\"b\" $HOME c\\ d"));
        assertEquals(List.of("x", ""), CommandLine.split("x ''"));
        assertEquals(List.of("ab"), CommandLine.split("a'b'"));
        InvalidInputException unclosed = assertThrows(InvalidInputException.class, () -> CommandLine.split("echo 'x"));
        assertTrue(unclosed.getMessage().contains("single quote at character 6"), unclosed.getMessage());
        assertThrows(InvalidInputException.class, () -> CommandLine.split("echo \"x"));
        assertThrows(InvalidInputException.class, () -> CommandLine.split("   "));
        assertThrows(InvalidInputException.class, () -> CommandLine.split("x \\"));
    }
}
