package dev.cairn.cli.commands.process;

import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.ProcessLines;
import dev.cairn.cli.output.TextTable;

/** {@code process show} as text: the process's properties, then its inputs, outputs and called processes. */
final class ProcessDetails {

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private ProcessDetails() {}

    static void print(JsonNode detail, Output out) {
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
            props.row("workdir", JsonTrees.text(job, "remote_workdir", ""));
        }
        out.print(props);
        ProcessLines.ports("Inputs", detail.path("inputs"), out);
        ProcessLines.ports("Outputs", detail.path("outputs"), out);
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
