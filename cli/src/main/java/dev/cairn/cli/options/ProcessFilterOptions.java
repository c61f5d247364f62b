package dev.cairn.cli.options;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.JsonTrees;

/**
 * Which processes: the criteria {@code process list}, the bulk {@code pause|play|kill} and {@code calcjob
 * cleanworkdir} share, as the
 * server's process filter takes them (each criterion given must hold).
 */
public final class ProcessFilterOptions {

    /** The states of a process that has not ended: what lists show by default. */
    public static final List<String> ACTIVE = List.of("created", "waiting");

    @Option(
            names = {"-S", "--state"},
            split = ",",
            paramLabel = "STATE",
            description = "In one of these states: created, waiting, finished, excepted, killed (comma-separated).")
    List<String> states;

    @Option(
            names = {"-T", "--type"},
            paramLabel = "ENTRY_POINT",
            description = "Of this entry point, or of those beginning with what comes before a final '*'"
                    + " (arithmetic.*).")
    String type;

    @Option(
            names = {"-K", "--kind"},
            split = ",",
            paramLabel = "KIND",
            description = "Of one of these kinds: calcfunction, calcjob, workchain, workfunction (comma-separated;"
                    + " the server checks them).")
    List<String> kinds;

    @Option(
            names = {"-L", "--label"},
            paramLabel = "LABEL",
            description = "With this label, or one beginning with what comes before a final '*'.")
    String label;

    @Option(
            names = {"-E", "--exit-status"},
            paramLabel = "N",
            description = "Finished with this exit status.")
    Integer exitStatus;

    @Option(
            names = {"-X", "--failed"},
            description = "Finished with a non-zero exit status.")
    boolean failed;

    @Option(names = "--paused", description = "Paused only.")
    boolean paused;

    @Option(
            names = {"-p", "--past-days"},
            paramLabel = "N",
            description = "Launched in the last N days.")
    Integer pastDays;

    @Option(
            names = "--since",
            paramLabel = "TIME",
            description = "Launched at or after this time: 2026-11-24, 2026-11-24T08:00 (this machine's time zone)"
                    + " or ISO 8601 with an offset.")
    String since;

    @Option(names = "--until", paramLabel = "TIME", description = "Launched before this time, written as for --since.")
    String until;

    @Option(
            names = {"-G", "--group"},
            paramLabel = "GROUP",
            description = "In the group of this label.")
    String group;

    @Option(
            names = "--caller",
            paramLabel = "REF",
            converter = NodeRef.Converter.class,
            description = "Called by this process: its PK (42), its uuid, or a unique prefix of the uuid.")
    NodeRef caller;

    @Option(names = "--top-level", description = "Called by no process: those a person or a script launched.")
    boolean topLevel;

    /** Whether a criterion names what a process ended with, so that ended ones are meant. */
    public boolean namesAnEnd() {
        return states != null || exitStatus != null || failed;
    }

    /** Whether only paused processes are asked for. */
    public boolean paused() {
        return paused;
    }

    public boolean isEmpty() {
        return states == null
                && type == null
                && kinds == null
                && label == null
                && exitStatus == null
                && !failed
                && !paused
                && pastDays == null
                && since == null
                && until == null
                && group == null
                && caller == null
                && !topLevel;
    }

    /**
     * The criteria as the list's query parameters ({@code &}-joined, encoded), with {@code defaultStates} if none;
     * {@code client} turns a caller's PK into what the server takes (it may be null when no caller is given).
     */
    public String query(List<String> defaultStates, CairnClient client) {
        if (caller != null && topLevel) {
            throw CliException.usage("--caller and --top-level: a top-level process has no caller; give one of them");
        }
        List<String> params = new ArrayList<>();
        List<String> s = states != null ? states : defaultStates;
        if (s != null && !s.isEmpty()) {
            params.add("state=" + CairnClient.param(String.join(",", s)));
        }
        add(params, "type", type);
        if (kinds != null && !kinds.isEmpty()) {
            params.add("kind=" + CairnClient.param(String.join(",", kinds)));
        }
        add(params, "label", label);
        add(params, "exit_status", exitStatus == null ? null : exitStatus.toString());
        add(params, "failed", failed ? "true" : null);
        add(params, "paused", paused ? "true" : null);
        add(params, "since", since());
        add(params, "until", until == null ? null : instant("--until", until).toString());
        add(params, "group", group);
        add(params, "caller", caller == null ? null : caller.resolve(client));
        add(params, "top_level", topLevel ? "true" : null);
        return String.join("&", params);
    }

    /**
     * Checks that the processes are chosen one way: named ({@code named}: REF arguments were given), or by
     * {@code --all} with these options; {@code naming} says what to name ("the processes to kill").
     */
    public void checkChoice(boolean named, boolean all, String naming) {
        if (all == named) {
            throw CliException.usage(
                    named
                            ? "give the processes (REF...) or --all, not both"
                            : "name " + naming + " (REF...), or give --all with filter options");
        }
        if (!all && !isEmpty()) {
            throw CliException.usage("filter options choose processes for --all only");
        }
    }

    /**
     * The uuids of the processes these options match (in {@code defaultStates} when they name none), with
     * {@code extra} list parameters ({@code paused=false}, or empty), oldest first, that {@code keep} keeps:
     * every page of the server's list.
     */
    public List<String> matching(
            CairnClient client, List<String> defaultStates, String extra, Predicate<JsonNode> keep) {
        String query = query(defaultStates, client);
        List<String> uuids = new ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = client.get("/api/v1/processes?order=ctime&limit=1000"
                    + (query.isEmpty() ? "" : "&" + query) + (extra.isEmpty() ? "" : "&" + extra)
                    + (cursor == null ? "" : "&cursor=" + CairnClient.param(cursor)));
            for (JsonNode p : page.path("items")) {
                if (keep.test(p)) {
                    uuids.add(JsonTrees.text(p, "uuid", ""));
                }
            }
            cursor = JsonTrees.text(page, "next", null);
        } while (cursor != null);
        return uuids;
    }

    private String since() {
        if (pastDays != null && since != null) {
            throw CliException.usage("--past-days and --since both say since when: give one");
        }
        if (since != null) {
            return instant("--since", since).toString();
        }
        if (pastDays == null) {
            return null;
        }
        if (pastDays < 1) {
            throw CliException.usage("--past-days must be at least 1, not " + pastDays);
        }
        return Instant.now().minus(pastDays, ChronoUnit.DAYS).toString();
    }

    /** A time as an option gives it: ISO 8601 with an offset, or a date and time or a date in this machine's zone. */
    static Instant instant(String option, String text) {
        String t = text.strip();
        try {
            return OffsetDateTime.parse(t).toInstant();
        } catch (DateTimeParseException e) {
            // a local time, below
        }
        try {
            return LocalDateTime.parse(t).atZone(ZoneId.systemDefault()).toInstant();
        } catch (DateTimeParseException e) {
            // a date, below
        }
        try {
            return LocalDate.parse(t).atStartOfDay(ZoneId.systemDefault()).toInstant();
        } catch (DateTimeParseException e) {
            throw CliException.usage(option + ": '" + text + "' is not a time: give 2026-11-24, 2026-11-24T08:00 or"
                    + " 2026-11-24T08:00:00Z");
        }
    }

    private static void add(List<String> params, String name, String value) {
        if (value != null) {
            params.add(name + "=" + CairnClient.param(value));
        }
    }
}
