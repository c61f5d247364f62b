package dev.cairn.cli.options;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine.Option;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.JsonTrees;
import dev.cairn.cli.config.ConfigFiles;

/**
 * A launch's inputs from the command line: a YAML or JSON file ({@code --inputs}) and single values
 * ({@code --input x=2}, which win over the file's). A value is JSON when it reads as JSON (2, true,
 * [1,2], {"uuid": "…"}), else the text itself; a dotted name ({@code scf.parameters=…}) is a port of a
 * namespace.
 */
public final class InputOptions {

    @Option(
            names = {"-i", "--input"},
            paramLabel = "PORT=VALUE",
            description = {
                "An input (repeat for more): a JSON value (2, true, [1,2], {\"uuid\": \"0190c1a2\"} for a stored"
                        + " node), else text. A dotted port (ns.x) is in a namespace."
            })
    List<String> inputs = new ArrayList<>();

    @Option(
            names = "--inputs",
            paramLabel = "FILE",
            description =
                    "A file of the inputs by port, YAML (or JSON when it ends in .json); --input values override its.")
    Path file;

    /** Whether any input was given. */
    public boolean given() {
        return file != null || !inputs.isEmpty();
    }

    /** The inputs as the launch's JSON object. */
    public ObjectNode toJson() {
        ObjectNode all = file == null ? JsonTrees.object() : ConfigFiles.mapping(file, "--inputs");
        for (String input : inputs) {
            int eq = input.indexOf('=');
            if (eq <= 0) {
                throw CliException.usage("--input '" + input + "' is not PORT=VALUE (e.g. --input x=2)");
            }
            put(all, input.substring(0, eq).strip(), value(input.substring(eq + 1)), input);
        }
        return all;
    }

    /** The value as JSON if it is JSON, else as text. */
    public static JsonNode value(String text) {
        try {
            JsonNode json = JsonTrees.parse(text);
            if (json != null && !json.isMissingNode()) {
                return json;
            }
        } catch (JacksonException e) {
            // text, then
        }
        return JsonTrees.MAPPER.getNodeFactory().stringNode(text);
    }

    private static void put(ObjectNode into, String port, JsonNode value, String input) {
        String[] path = port.split("\\.", -1);
        ObjectNode at = into;
        for (int i = 0; i < path.length; i++) {
            if (path[i].isEmpty()) {
                throw CliException.usage("--input '" + input + "': '" + port + "' is no port name");
            }
            if (i == path.length - 1) {
                at.set(path[i], value);
            } else {
                JsonNode next = at.get(path[i]);
                if (next == null || !next.isObject()) {
                    next = at.putObject(path[i]);
                }
                at = (ObjectNode) next;
            }
        }
    }
}
