package dev.cairn.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ReferencePageTest {

    private static final Pattern HEADING = Pattern.compile("(?m)^## (.+) \\{ #([a-z0-9-]+) }$");
    private static final Pattern LINK = Pattern.compile("\\]\\(#([a-z0-9-]+)\\)");

    @TempDir
    Path dir;

    @Test
    void everyCommandGetsASectionWithItsSynopsisAndOptions() throws Exception {
        String page = write();
        List<CommandLine> all = new ArrayList<>();
        ManPages.collect(CairnCommand.commandLine(), all);
        Matcher headings = HEADING.matcher(page);
        int sections = 0;
        while (headings.find()) {
            sections++;
        }
        assertEquals(all.size() + 1, sections, "a section per command, and one of the options they share");
        String add = section(page, "cairn-profile-add");
        assertTrue(add.contains("```\ncairn profile add "), add);
        assertTrue(add.contains("| `--token-file FILE` |"), "a command's own options: " + add);
        assertFalse(add.contains("| `--profile NAME` |"), "the shared ones are listed once: " + add);
        assertTrue(section(page, "options-of-every-command").contains("| `--profile NAME` |"));
    }

    @Test
    void helpTextReadsAsPicocliPrintsIt() throws Exception {
        String query = section(write(), "cairn-query");
        assertTrue(query.contains("like 'relax%' and"), "a percent sign written %% in the help: " + query);
        assertFalse(query.contains("%%"), query);
    }

    @Test
    void everyLinkToACommandFindsItsSection() throws Exception {
        String page = write();
        Set<String> anchors = new HashSet<>();
        Matcher headings = HEADING.matcher(page);
        while (headings.find()) {
            anchors.add(headings.group(2));
        }
        Matcher links = LINK.matcher(page);
        int count = 0;
        while (links.find()) {
            count++;
            assertTrue(anchors.contains(links.group(1)), "no section for the link #" + links.group(1));
        }
        assertTrue(count > 10, "the commands link their subcommands");
    }

    @Test
    void helpTextCannotBreakTheTablesOrTheMarkup() throws Exception {
        for (String line : write().split("\n")) {
            if (line.startsWith("| `")) {
                assertEquals(
                        3, line.replace("\\|", "").chars().filter(c -> c == '|').count(), line);
            }
            assertFalse(line.contains("@|"), "picocli's markup is gone: " + line);
        }
    }

    private String write() throws Exception {
        Path file = dir.resolve("cli.md");
        ReferencePage.main(new String[] {file.toString()});
        return Files.readString(file);
    }

    private static String section(String page, String anchor) {
        int start = page.indexOf("{ #" + anchor + " }");
        int end = page.indexOf("\n## ", start);
        return page.substring(start, end < 0 ? page.length() : end);
    }
}
