package dev.cairn.cli.commands.plugin;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CairnClient;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.options.JobOptionFlags;
import dev.cairn.cli.options.Session;
import dev.cairn.cli.output.Output;
import dev.cairn.cli.output.TextTable;

/** {@code cairn plugin list [ENTRY_POINT]}: what the server can launch, and what each takes. */
@Command(
        name = "plugin",
        description = "The process types (entry points) the server's plugins provide.",
        subcommands = PluginCommand.ListPlugins.class)
public final class PluginCommand {

    /** One input port as the table shows it, from the inputs' JSON Schema. */
    record Input(String name, String type, boolean required, boolean hasDefault, String help) {

        ObjectNode json() {
            ObjectNode json = JsonTrees.object();
            json.put("name", name);
            json.put("type", type);
            json.put("required", required);
            json.put("default", hasDefault);
            json.put("help", help);
            return json;
        }
    }

    /** The ports of an inputs schema, namespaces flattened to dotted names, in declaration order. */
    static List<Input> inputs(JsonNode schema) {
        List<Input> inputs = new ArrayList<>();
        collect(schema, "", inputs);
        return inputs;
    }

    private static void collect(JsonNode namespace, String prefix, List<Input> into) {
        Set<String> required = new HashSet<>();
        namespace.path("required").forEach(r -> required.add(r.asString()));
        for (var entry : namespace.path("properties").properties()) {
            JsonNode port = entry.getValue();
            String name = prefix + entry.getKey();
            if (!port.has("title") && port.has("properties")) {
                collect(port, name + ".", into);
                continue;
            }
            into.add(new Input(
                    name,
                    JsonTrees.text(port, "title", ""),
                    required.contains(entry.getKey()),
                    port.path("x-cairn-has-default").asBoolean(false),
                    JsonTrees.text(port, "description", "")));
        }
    }

    @Command(
            name = "list",
            description = {
                "List the entry points the server can launch, with their inputs; with ENTRY_POINT, that one's inputs"
                        + " (name, type, required, default, help), a calculation job's options (--option) and its"
                        + " exit codes."
            })
    static final class ListPlugins implements Runnable {

        @Mixin
        Session session;

        @Parameters(arity = "0..1", paramLabel = "ENTRY_POINT", description = "One entry point, e.g. arithmetic.add.")
        String entryPoint;

        @Override
        public void run() {
            Output out = session.output();
            if (entryPoint == null) {
                listAll(out);
            } else {
                showOne(out);
            }
        }

        private void listAll(Output out) {
            JsonNode types = session.client().get("/api/v1/process-types");
            if (out.json()) {
                ArrayNode array = JsonTrees.MAPPER.createArrayNode();
                for (JsonNode type : types) {
                    array.add(summary(type));
                }
                out.print(array);
                return;
            }
            TextTable table = TextTable.of("ENTRY POINT", "KIND", "INPUTS");
            for (JsonNode type : types) {
                List<String> names = new ArrayList<>();
                for (Input input : inputs(type.path("inputs_schema"))) {
                    names.add(input.name() + (input.required() ? "*" : ""));
                }
                table.row(type.path("entry_point").asString(), type.path("kind").asString(), String.join(", ", names));
            }
            out.print(table);
            out.note("* required; `cairn plugin list ENTRY_POINT` tells more of one");
        }

        private void showOne(Output out) {
            JsonNode type = session.client().get("/api/v1/process-types/" + CairnClient.segment(entryPoint));
            List<Input> inputs = inputs(type.path("inputs_schema"));
            List<JobOptionFlags.Listed> options = JobOptionFlags.listed(JobOptionFlags.schemaOf(type));
            if (out.json()) {
                ObjectNode json = summary(type);
                ArrayNode listed = json.putArray("job_options");
                options.forEach(o -> listed.addObject()
                        .put("name", o.name())
                        .put("type", o.type())
                        .put("help", o.help()));
                json.set("exit_codes", type.path("exit_codes"));
                out.print(json);
                return;
            }
            out.line(type.path("entry_point").asString() + " ("
                    + type.path("kind").asString() + ")");
            String help = JsonTrees.text(type.path("inputs_schema"), "description", "");
            if (!help.isEmpty()) {
                out.line(help);
            }
            out.line("");
            TextTable table = TextTable.of("INPUT", "TYPE", "REQUIRED", "DEFAULT", "HELP");
            for (Input input : inputs) {
                table.row(
                        input.name(),
                        input.type(),
                        input.required() ? "yes" : "no",
                        input.hasDefault() ? "yes" : "",
                        input.help());
            }
            out.print(table);
            if (!options.isEmpty()) {
                out.line("");
                TextTable optionTable = TextTable.of("JOB OPTION (--option)", "TYPE", "HELP");
                options.forEach(o -> optionTable.row(o.name(), o.type(), o.help()));
                out.print(optionTable);
            }
            if (!type.path("exit_codes").isEmpty()) {
                out.line("");
                TextTable codes = TextTable.of("EXIT", "LABEL", "MESSAGE").alignRight("EXIT");
                for (JsonNode code : type.path("exit_codes")) {
                    codes.row(
                            code.path("status").asInt(),
                            code.path("label").asString(),
                            code.path("message").asString());
                }
                out.print(codes);
            }
        }

        private static ObjectNode summary(JsonNode type) {
            ObjectNode json = JsonTrees.object();
            json.put("entry_point", type.path("entry_point").asString());
            json.put("kind", type.path("kind").asString());
            ArrayNode inputs = json.putArray("inputs");
            inputs(type.path("inputs_schema")).forEach(i -> inputs.add(i.json()));
            return json;
        }
    }
}
