package dev.cairn.cli.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import dev.cairn.cli.client.CliException;

class ProcessFilterOptionsTest {

    private static ProcessFilterOptions parse(String... args) {
        return CommandLine.populateCommand(new ProcessFilterOptions(), args);
    }

    @Test
    void kindsAndTimesGoToTheServerAsItsParameters() {
        String query = parse(
                        "--kind",
                        "calcjob,workchain",
                        "-K",
                        "calcfunction",
                        "--since",
                        "2026-11-24T08:00:00Z",
                        "--until",
                        "2026-11-25T09:30:00+01:00")
                .query(null, null);
        assertEquals(
                "kind=calcjob%2Cworkchain%2Ccalcfunction&since=2026-11-24T08%3A00%3A00Z&until=2026-11-25T08%3A30%3A00Z",
                query);
    }

    @Test
    void aTimeWithoutAnOffsetIsThisMachinesAndADateItsMidnight() {
        ZoneId here = ZoneId.systemDefault();
        assertEquals(
                LocalDateTime.parse("2026-11-24T08:00").atZone(here).toInstant(),
                ProcessFilterOptions.instant("--since", "2026-11-24T08:00"));
        assertEquals(
                LocalDate.parse("2026-11-24").atStartOfDay(here).toInstant(),
                ProcessFilterOptions.instant("--since", " 2026-11-24 "));
        assertEquals(
                Instant.parse("2026-11-24T07:00:00Z"),
                ProcessFilterOptions.instant("--since", "2026-11-24T08:00+01:00"));
    }

    @Test
    void aTimeThatIsNoneAndTwoWaysOfSayingSinceAreRefusedNamingTheOption() {
        CliException bad = assertThrows(
                CliException.class, () -> parse("--until", "yesterday").query(null, null));
        assertTrue(bad.getMessage().contains("--until: 'yesterday' is not a time"), bad.getMessage());
        CliException both = assertThrows(
                CliException.class,
                () -> parse("--since", "2026-11-24", "-p", "1").query(null, null));
        assertTrue(both.getMessage().contains("--past-days and --since"), both.getMessage());
        assertTrue(parse().isEmpty());
        assertTrue(!parse("--until", "2026-11-24").isEmpty(), "a time is a criterion: bulk controls need --all");
    }

    @Test
    void aCallerGoesAsTheServerResolvesItAndTopLevelAsItsFlag() {
        assertEquals("caller=pk%3A42", parse("--caller", "pk:42").query(null, null));
        assertEquals("caller=0190c1a2", parse("--caller", "0190C1A2").query(null, null));
        assertEquals("state=waiting&top_level=true", parse("--top-level").query(List.of("waiting"), null));
    }

    @Test
    void aCallerThatIsNoNodeAndACallerOfATopLevelProcessAreRefused() {
        CommandLine.ParameterException notANode =
                assertThrows(CommandLine.ParameterException.class, () -> parse("--caller", "x-1"));
        assertTrue(notANode.getMessage().contains("'x-1' is not a node"), notANode.getMessage());
        CliException both = assertThrows(
                CliException.class,
                () -> parse("--caller", "pk:42", "--top-level").query(null, null));
        assertTrue(both.getMessage().contains("--caller and --top-level"), both.getMessage());
    }
}
