package dev.cairn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ManPagesTest {

    @TempDir
    Path dir;

    @Test
    void everyCommandGetsAPageWithItsOptionsAndTheExitCodes() throws Exception {
        ManPages.main(new String[] {dir.toString()});
        long commands = count(CairnCommand.commandLine());
        try (Stream<Path> pages = Files.list(dir)) {
            assertEquals(commands, pages.count());
        }
        String add = Files.readString(dir.resolve("cairn-profile-add.1"));
        assertTrue(add.startsWith(".TH \"CAIRN-PROFILE-ADD\" 1"), add);
        assertTrue(add.contains(".SH OPTIONS") && add.contains("\\-\\-token\\-file"), add);
        assertTrue(add.contains(".SH EXIT STATUS") && add.contains("3 not found"), add);
        String query = Files.readString(dir.resolve("cairn-query.1"));
        assertTrue(query.contains("like 'relax%' and") && !query.contains("%%"), query);
        String root = Files.readString(dir.resolve("cairn.1"));
        assertTrue(root.contains("\\fBcairn\\-profile\\fR(1)"), "the root page names its commands' pages: " + root);
    }

    private static long count(CommandLine command) {
        return 1
                + command.getSubcommands().values().stream()
                        .mapToLong(ManPagesTest::count)
                        .sum();
    }
}
