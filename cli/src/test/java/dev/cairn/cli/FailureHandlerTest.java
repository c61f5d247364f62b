package dev.cairn.cli;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import dev.cairn.cli.client.ExitCodes;

/** A command line that does not parse: the line that says what was wrong, not a page of usage. */
class FailureHandlerTest {

    private final StringWriter err = new StringWriter();

    @Test
    void aBadValueIsOneLineAndAHint() {
        int code = run("process", "list", "--caller", "zz");
        assertAll(
                () -> assertEquals(ExitCodes.USAGE, code),
                () -> assertTrue(
                        err.toString().startsWith("cairn: Invalid value for option '--caller': 'zz' is not a node"),
                        err.toString()),
                () -> assertTrue(
                        err.toString().contains("hint: cairn process list --help lists its options"), err.toString()),
                () -> assertFalse(err.toString().contains("Usage:"), err.toString()),
                () -> assertEquals(2, err.toString().lines().count(), err.toString()));
    }

    @Test
    void anUnknownOptionSuggestsTheNearest() {
        int code = run("process", "list", "--top-levl");
        assertAll(
                () -> assertEquals(ExitCodes.USAGE, code),
                () -> assertTrue(err.toString().startsWith("cairn: Unknown option: '--top-levl'"), err.toString()),
                () -> assertTrue(err.toString().contains("--top-level"), err.toString()),
                () -> assertFalse(err.toString().contains("Usage:"), err.toString()));
    }

    @Test
    void aGroupGivenAWordNoCommandHasListsItsCommands() {
        int code = run("process", "lsit");
        assertAll(
                () -> assertEquals(ExitCodes.USAGE, code),
                () -> assertTrue(err.toString().startsWith("cairn: Unmatched argument"), err.toString()),
                () -> assertTrue(err.toString().contains("list"), err.toString()),
                () -> assertTrue(err.toString().contains("Usage: cairn process"), err.toString()));
    }

    private int run(String... args) {
        CommandLine command = CairnCommand.commandLine(args);
        command.setErr(new PrintWriter(err, true));
        return command.execute(args);
    }
}
