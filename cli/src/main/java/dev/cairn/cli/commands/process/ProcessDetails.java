package dev.cairn.cli.commands.process;

import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.ProcessLines;
import dev.cairn.cli.output.Progress;
import dev.cairn.cli.output.TextTable;

/**
 * {@code process show} as text: the process's properties, then its inputs and outputs, a calculation job's
 * files sent and retrieved, and the processes it called.
 */
final class ProcessDetails {

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private ProcessDetails() {}

    /**
     * @param sent      a calculation job's files listing (its node's, recursive), null for another process
     * @param retrieved the listing of a job's retrieved folder, null when it has none (yet)
     */
    static void print(JsonNode detail, JsonNode sent, JsonNode retrieved, Output out) {
        JsonNode p = detail.path("process");
        TextTable props = TextTable.of("Property", "Value");
        props.row("pk", ProcessLines.id(p));
        props.row("uuid", JsonTrees.text(p, "uuid", ""));
        props.row("type", JsonTrees.text(p, "entry_point", "") + " (" + JsonTrees.text(p, "kind", "") + ")");
        props.row("label", JsonTrees.text(p, "label", ""));
        props.row("description", JsonTrees.text(detail, "description", ""));
        props.row("state", ProcessLines.state(p, out.style()));
        JsonNode exit = detail.get("exit_code");
        if (exit != null && !exit.isNull()) {
            String label = JsonTrees.text(exit, "label", null);
            String message = JsonTrees.text(exit, "message", "");
            props.row(
                    "exit",
                    exit.path("status").asInt()
                            + (label == null ? "" : " " + label)
                            + (message.isEmpty() ? "" : ": " + message));
        } else if (!JsonTrees.text(p, "process_status", "").isEmpty()) {
            props.row("status", JsonTrees.text(p, "process_status", ""));
        }
        props.row(
                "ctime", time(JsonTrees.text(p, "ctime", "")) + " (" + out.ago(JsonTrees.text(p, "ctime", null)) + ")");
        props.row(
                "mtime", time(JsonTrees.text(p, "mtime", "")) + " (" + out.ago(JsonTrees.text(p, "mtime", null)) + ")");
        props.row("user", JsonTrees.text(p, "user", ""));
        props.row("caller", JsonTrees.text(p, "caller", "none (top level)"));
        String cachedFrom = JsonTrees.text(detail, "cached_from", null);
        if (cachedFrom != null) {
            props.row("cached from", cachedFrom);
        }
        JsonNode job = detail.get("job");
        if (job != null && !job.isNull()) {
            props.row("computer", JsonTrees.text(job, "computer", ""));
            props.row("job id", JsonTrees.text(job, "job_id", ""));
            props.row("scheduler", JsonTrees.text(job, "scheduler_state", ""));
            String checked = JsonTrees.text(job, "scheduler_lastchecktime", null);
            if (checked != null) {
                props.row("last checked", time(checked) + " (" + out.ago(checked) + ")");
            }
            JsonNode info = job.get("last_job_info");
            if (info != null && info.isObject()) {
                props.row("job info", jobInfo(info));
            }
            props.row("workdir", JsonTrees.text(job, "remote_workdir", ""));
        }
        out.print(props);
        ProcessLines.ports("Inputs", detail.path("inputs"), out);
        ProcessLines.ports("Outputs", detail.path("outputs"), out);
        if (sent != null) {
            files(
                    "Files sent",
                    sent,
                    "none yet: the job has not been submitted, or its results came from the cache",
                    out);
            files("Files retrieved", retrieved, "none yet", out);
        }
        JsonNode called = detail.path("called");
        if (!called.isEmpty()) {
            out.line("");
            TextTable t = TextTable.of("Called (PK)", "Type", "State", "Created");
            for (JsonNode c : called) {
                t.row(
                        ProcessLines.id(c),
                        JsonTrees.text(c, "entry_point", ""),
                        ProcessLines.state(c, out.style()),
                        out.ago(JsonTrees.text(c, "ctime", null)));
            }
            out.print(t);
        }
        String exception = JsonTrees.text(detail, "exception", null);
        if (exception != null) {
            out.line("");
            out.line("Exception:");
            out.line(exception);
        }
    }

    /**
     * The files of a listing with their sizes, as the web page lists them; {@code none} when there is no
     * listing or no file in it.
     */
    static void files(String title, JsonNode listing, String none, Output out) {
        out.line("");
        TextTable t = TextTable.of(title, "Size").alignRight("Size");
        if (listing != null) {
            for (JsonNode entry : listing.path("entries")) {
                if ("file".equals(JsonTrees.text(entry, "type", ""))) {
                    t.row(
                            JsonTrees.text(entry, "path", ""),
                            Progress.size(entry.path("size").asLong()));
                }
            }
        }
        if (t.isEmpty()) {
            out.line(title + ": " + none);
        } else {
            out.print(t);
        }
    }

    /**
     * A few fields of {@code last_job_info}, those the scheduler gave: "substate R, ran 1:15 of 2:00:00,
     * 2 machines (node017, node018), 8 cpus, queue workq, exit 0, Resources".
     */
    static String jobInfo(JsonNode info) {
        List<String> parts = new ArrayList<>();
        String substate = JsonTrees.text(info, "job_substate", null);
        if (substate != null) {
            parts.add("substate " + substate);
        }
        JsonNode ran = info.get("wallclock_time_seconds");
        JsonNode asked = info.get("requested_wallclock_time_seconds");
        if (ran != null && ran.isNumber()) {
            parts.add("ran " + clock(ran.asLong())
                    + (asked != null && asked.isNumber() ? " of " + clock(asked.asLong()) : ""));
        } else if (asked != null && asked.isNumber()) {
            parts.add("asked for " + clock(asked.asLong()));
        }
        JsonNode machines = info.get("num_machines");
        List<String> names = new ArrayList<>();
        info.path("allocated_machines").forEach(m -> names.add(JsonTrees.text(m, "name", "?")));
        if (machines != null && machines.isNumber()) {
            parts.add(machines.asLong()
                    + (machines.asLong() == 1 ? " machine" : " machines")
                    + (names.isEmpty() ? "" : " (" + String.join(", ", names) + ")"));
        } else if (!names.isEmpty()) {
            parts.add("on " + String.join(", ", names));
        }
        JsonNode cpus = info.get("num_cpus");
        if (cpus != null && cpus.isNumber()) {
            parts.add(cpus.asLong() + (cpus.asLong() == 1 ? " cpu" : " cpus"));
        }
        String queue = JsonTrees.text(info, "queue_name", null);
        if (queue != null) {
            parts.add("queue " + queue);
        }
        JsonNode exit = info.get("exit_status");
        if (exit != null && exit.isNumber()) {
            parts.add("exit " + exit.asLong());
        }
        String annotation = JsonTrees.text(info, "annotation", null);
        if (annotation != null) {
            parts.add(annotation);
        }
        return String.join(", ", parts);
    }

    /** Seconds as "1:02:03", or "2:03" under an hour. */
    private static String clock(long seconds) {
        return seconds >= 3600
                ? String.format("%d:%02d:%02d", seconds / 3600, seconds % 3600 / 60, seconds % 60)
                : String.format("%d:%02d", seconds / 60, seconds % 60);
    }

    /** An ISO time as the local "2026-11-24 15:13:01". */
    static String time(String iso) {
        try {
            return OffsetDateTime.parse(iso)
                    .atZoneSameInstant(ZoneId.systemDefault())
                    .format(LOCAL);
        } catch (DateTimeParseException e) {
            return iso;
        }
    }
}
