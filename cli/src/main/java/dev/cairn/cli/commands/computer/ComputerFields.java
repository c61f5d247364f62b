package dev.cairn.cli.commands.computer;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.JsonTrees;

/**
 * A computer's fields as {@code computer setup --config} reads them and {@code computer export setup}
 * writes them (verdi's names: {@code transport}, {@code scheduler}, {@code work_dir}), and how they map to
 * the server's computer: label, hostname, description, transportType, schedulerType and the settings.
 */
final class ComputerFields {

    /** Fields that are the computer's own; every other field is one of its settings. */
    static final List<String> TOP = List.of("label", "hostname", "description", "transport", "scheduler");

    /** The settings by their names in a file; {@code work_dir} is the server's {@code workdir}. */
    static final List<String> SETTINGS = List.of(
            "work_dir",
            "mpirun_command",
            "default_mpiprocs_per_machine",
            "prepend_text",
            "append_text",
            "transport_params",
            "max_connections",
            "minimum_job_poll_interval",
            "connection_keep_alive",
            "submissions_per_minute",
            "retry_attempts",
            "retry_initial_interval");

    static final Set<String> WHOLE_NUMBERS =
            Set.of("default_mpiprocs_per_machine", "max_connections", "submissions_per_minute", "retry_attempts");

    static final Set<String> NUMBERS =
            Set.of("minimum_job_poll_interval", "connection_keep_alive", "retry_initial_interval");

    /** The transport parameters {@code computer configure} takes (the server's, for core.ssh and core.local). */
    static final List<String> TRANSPORT_PARAMS =
            List.of("username", "port", "key_filename", "timeout", "known_hosts", "host_key_policy", "environment");

    private ComputerFields() {}

    /** The computer's URL path on the server. */
    static String path(String label) {
        return "/api/v1/computers/" + CairnClient.segment(label);
    }

    static List<String> all() {
        List<String> all = new ArrayList<>(TOP);
        all.addAll(SETTINGS);
        return all;
    }

    /** The request body of POST /api/v1/computers from the fields of a file and the command line. */
    static ObjectNode request(ObjectNode fields) {
        ObjectNode body = JsonTrees.object();
        body.set("label", fields.get("label"));
        body.set("hostname", fields.get("hostname"));
        if (fields.hasNonNull("description")) {
            body.set("description", fields.get("description"));
        }
        body.set("transportType", fields.get("transport"));
        body.set("schedulerType", fields.get("scheduler"));
        ObjectNode settings = body.putObject("settings");
        for (String name : SETTINGS) {
            JsonNode value = fields.get(name);
            if (value != null && !value.isNull()) {
                settings.set(name.equals("work_dir") ? "workdir" : name, typed(name, value));
            }
        }
        return body;
    }

    /** The fields of a computer the server shows, as {@code setup --config} reads them back. */
    static ObjectNode of(JsonNode computer) {
        ObjectNode fields = JsonTrees.object();
        fields.put("label", JsonTrees.text(computer, "label", null));
        fields.put("hostname", JsonTrees.text(computer, "hostname", null));
        String description = JsonTrees.text(computer, "description", "");
        if (!description.isEmpty()) {
            fields.put("description", description);
        }
        fields.put("transport", JsonTrees.text(computer, "transportType", null));
        fields.put("scheduler", JsonTrees.text(computer, "schedulerType", null));
        JsonNode settings = computer.path("settings");
        for (String name : SETTINGS) {
            JsonNode value = settings.get(name.equals("work_dir") ? "workdir" : name);
            if (value != null && !value.isNull()) {
                fields.set(name, value);
            }
        }
        return fields;
    }

    /** A value typed as the server wants it: numbers for the numeric settings, also when they came as text. */
    static JsonNode typed(String name, JsonNode value) {
        if (!value.isString() || !(WHOLE_NUMBERS.contains(name) || NUMBERS.contains(name))) {
            return value;
        }
        String text = value.asString().strip();
        try {
            return WHOLE_NUMBERS.contains(name)
                    ? JsonTrees.MAPPER.getNodeFactory().numberNode(Integer.parseInt(text))
                    : JsonTrees.MAPPER.getNodeFactory().numberNode(Double.parseDouble(text));
        } catch (NumberFormatException e) {
            throw CliException.usage(name + " must be a " + (WHOLE_NUMBERS.contains(name) ? "whole number" : "number")
                    + ", not '" + text + "'");
        }
    }
}
