package dev.cairn.cli.commands;

import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;

import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.Json;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.ProcessLines;
import dev.cairn.cli.output.Table;

/** {@code process show} as text: the process's properties, then its inputs, outputs and called processes. */
final class ProcessDetails {

    private static final DateTimeFormatter LOCAL = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    private ProcessDetails() {}

    static void print(JsonNode detail, Output out) {
        JsonNode p = detail.path("process");
        Table props = Table.of("Property", "Value");
        props.row("pk", ProcessLines.id(p));
        props.row("uuid", Json.text(p, "uuid", ""));
        props.row("type", Json.text(p, "entry_point", "") + " (" + Json.text(p, "kind", "") + ")");
        props.row("label", Json.text(p, "label", ""));
        props.row("description", Json.text(detail, "description", ""));
        props.row("state", ProcessLines.state(p, out.style()));
        JsonNode exit = detail.get("exit_code");
        if (exit != null && !exit.isNull()) {
            String label = Json.text(exit, "label", null);
            String message = Json.text(exit, "message", "");
            props.row(
                    "exit",
                    exit.path("status").asInt()
                            + (label == null ? "" : " " + label)
                            + (message.isEmpty() ? "" : ": " + message));
        } else if (!Json.text(p, "process_status", "").isEmpty()) {
            props.row("status", Json.text(p, "process_status", ""));
        }
        props.row("ctime", time(Json.text(p, "ctime", "")) + " (" + out.ago(Json.text(p, "ctime", null)) + ")");
        props.row("mtime", time(Json.text(p, "mtime", "")) + " (" + out.ago(Json.text(p, "mtime", null)) + ")");
        props.row("user", Json.text(p, "user", ""));
        props.row("caller", Json.text(p, "caller", "none (top level)"));
        String cachedFrom = Json.text(detail, "cached_from", null);
        if (cachedFrom != null) {
            props.row("cached from", cachedFrom);
        }
        JsonNode job = detail.get("job");
        if (job != null && !job.isNull()) {
            props.row("computer", Json.text(job, "computer", ""));
            props.row("job id", Json.text(job, "job_id", ""));
            props.row("scheduler", Json.text(job, "scheduler_state", ""));
            props.row("workdir", Json.text(job, "remote_workdir", ""));
        }
        out.print(props);
        links("Inputs", detail.path("inputs"), out);
        links("Outputs", detail.path("outputs"), out);
        JsonNode called = detail.path("called");
        if (!called.isEmpty()) {
            out.line("");
            Table t = Table.of("Called (PK)", "Type", "State", "Created");
            for (JsonNode c : called) {
                t.row(
                        ProcessLines.id(c),
                        Json.text(c, "entry_point", ""),
                        ProcessLines.state(c, out.style()),
                        out.ago(Json.text(c, "ctime", null)));
            }
            out.print(t);
        }
        String exception = Json.text(detail, "exception", null);
        if (exception != null) {
            out.line("");
            out.line("Exception:");
            out.line(exception);
        }
    }

    static void links(String title, JsonNode ports, Output out) {
        if (ports.isEmpty()) {
            return;
        }
        out.line("");
        Table t = Table.of(title, "PK", "Type", "Value");
        for (Map.Entry<String, JsonNode> port : ports.properties()) {
            JsonNode node = port.getValue();
            JsonNode value = node.get("value");
            t.row(
                    port.getKey(),
                    ProcessLines.id(node),
                    Json.text(node, "node_type", ""),
                    value == null || value.isNull() ? "" : value.isString() ? value.asString() : Json.compact(value));
        }
        out.print(t);
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
