package dev.cairn.api.pages;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

import org.springframework.stereotype.Component;

import dev.cairn.api.processes.ProcessFilter;
import dev.cairn.api.processes.ProcessService;
import dev.cairn.api.processes.ProcessSummary;

/**
 * The dashboard's failures: processes launched in the last day that failed (finished with a non-zero exit
 * status) or excepted, newest first, each with what it said: its exit message, or the first line of its
 * exception. Three queries however many are shown: the failed, the excepted, and what they said.
 */
@Component
class RecentFailures {

    static final Duration WINDOW = Duration.ofDays(1);
    static final int SHOWN = 10;

    /** A failed process and its message. */
    record Failure(ProcessSummary process, String message) {}

    private final ProcessService processes;

    RecentFailures(ProcessService processes) {
        this.processes = processes;
    }

    List<Failure> list() {
        OffsetDateTime since = OffsetDateTime.now().minus(WINDOW);
        ProcessFilter failed =
                new ProcessFilter(null, null, null, null, null, null, true, null, since, null, null, null, null);
        ProcessFilter excepted = new ProcessFilter(
                null, List.of("excepted"), null, null, null, null, null, null, since, null, null, null, null);
        List<ProcessSummary> newest = Stream.concat(newest(failed).stream(), newest(excepted).stream())
                .sorted(Comparator.comparing(ProcessSummary::ctime).reversed())
                .limit(SHOWN)
                .toList();
        Map<UUID, String> messages = processes.endMessages(newest);
        return newest.stream()
                .map(p -> new Failure(p, messages.getOrDefault(p.uuid(), "")))
                .toList();
    }

    private List<ProcessSummary> newest(ProcessFilter filter) {
        return processes.list(filter, "-ctime", null, SHOWN, false).items();
    }
}
