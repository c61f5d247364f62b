package dev.cairn.api.pages.processes;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.web.util.UriComponentsBuilder;

import dev.cairn.api.processes.ProcessFilter;
import dev.cairn.api.web.CommaLists;
import dev.cairn.storage.errors.InvalidInputException;

/**
 * The process list's filters as they stand in its URL, so that a view can be bookmarked and shared:
 * states, type and label (exact, or a prefix ending in '*'), kinds of process, exit status, failed or
 * paused only, a group, and a time range of launches (the filters of the REST list and the command line). A time is ISO 8601 with an offset, or a form's local date and time, read as UTC.
 */
record ListFilters(
        List<String> states,
        String type,
        List<String> kinds,
        String label,
        String exitStatus,
        boolean failed,
        boolean paused,
        String group,
        String since,
        String until) {

    ListFilters {
        states = CommaLists.names(states);
        kinds = CommaLists.names(kinds);
        type = blankIsNull(type);
        label = blankIsNull(label);
        exitStatus = blankIsNull(exitStatus);
        group = blankIsNull(group);
        since = blankIsNull(since);
        until = blankIsNull(until);
    }

    /** The filter the process service takes; a value that is not one is refused, naming the field. */
    ProcessFilter filter() {
        return new ProcessFilter(
                null,
                states,
                type,
                kinds.isEmpty() ? null : kinds,
                label,
                exitStatus == null ? null : exitStatus(exitStatus),
                failed ? true : null,
                paused ? true : null,
                time("since", since),
                time("until", until),
                null,
                null,
                group);
    }

    /** The filters as a query string ({@code ?state=waiting&type=…}), empty when there are none. */
    String query() {
        return link(null, null);
    }

    /** The list's URL with these filters and one more parameter ({@code name} null: none). */
    String url(String name, String value) {
        return "/ui/processes" + link(name, value);
    }

    private String link(String name, String value) {
        UriComponentsBuilder uri = UriComponentsBuilder.newInstance();
        params().forEach((key, values) -> values.forEach(v -> uri.queryParam(key, v)));
        if (name != null) {
            uri.queryParam(name, value);
        }
        return uri.encode().build().toUriString();
    }

    /** The filters by parameter name, those given only. */
    Map<String, List<String>> params() {
        Map<String, List<String>> params = new LinkedHashMap<>();
        if (!states.isEmpty()) {
            params.put("state", new ArrayList<>(states));
        }
        put(params, "type", type);
        if (!kinds.isEmpty()) {
            params.put("kind", new ArrayList<>(kinds));
        }
        put(params, "label", label);
        put(params, "exit_status", exitStatus);
        put(params, "failed", failed ? "true" : null);
        put(params, "paused", paused ? "true" : null);
        put(params, "group", group);
        put(params, "since", since);
        put(params, "until", until);
        return params;
    }

    private static void put(Map<String, List<String>> params, String name, String value) {
        if (value != null) {
            params.put(name, List.of(value));
        }
    }

    private static Integer exitStatus(String text) {
        try {
            return Integer.valueOf(text.strip());
        } catch (NumberFormatException e) {
            throw new InvalidInputException("exit status '" + text + "' is not a whole number");
        }
    }

    static OffsetDateTime time(String name, String text) {
        if (text == null) {
            return null;
        }
        try {
            return OffsetDateTime.parse(text);
        } catch (DateTimeParseException e) {
            try {
                return LocalDateTime.parse(text).atOffset(ZoneOffset.UTC);
            } catch (DateTimeParseException again) {
                throw new InvalidInputException(
                        name + " '" + text + "' is not a date and time (2026-11-24T08:00, or ISO 8601 with an offset)");
            }
        }
    }

    private static String blankIsNull(String s) {
        return s == null || s.isBlank() ? null : s.strip();
    }
}
