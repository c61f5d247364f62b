package dev.cairn.cli.commands.code;

import java.util.List;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.JsonTrees;

/** A code's fields as {@code code create --config} reads them and {@code code export} writes them. */
final class CodeFields {

    /** The fields of a code's configuration file. */
    static final List<String> NAMES = List.of(
            "label",
            "computer",
            "filepath_executable",
            "filepath_files",
            "description",
            "default_calc_job_plugin",
            "prepend_text",
            "append_text",
            "with_mpi");

    private CodeFields() {}

    /** The fields of a code the server shows, as {@code --config} reads them back. */
    static ObjectNode of(JsonNode code) {
        ObjectNode fields = JsonTrees.object();
        fields.put("label", code.path("label").asString());
        if (code.hasNonNull("computer")) {
            fields.put("computer", code.path("computer").asString());
        }
        fields.put("filepath_executable", code.path("executable").asString());
        copy(code, "description", fields, "description");
        copy(code, "defaultCalcJobPlugin", fields, "default_calc_job_plugin");
        copy(code, "prependText", fields, "prepend_text");
        copy(code, "appendText", fields, "append_text");
        copy(code, "withMpi", fields, "with_mpi");
        return fields;
    }

    /** Copies a field that has a value, under another name. */
    static void copy(JsonNode from, String name, ObjectNode to, String as) {
        JsonNode value = from.get(name);
        if (value != null
                && !value.isNull()
                && !(value.isString() && value.asString().isEmpty())) {
            to.set(as, value);
        }
    }
}
