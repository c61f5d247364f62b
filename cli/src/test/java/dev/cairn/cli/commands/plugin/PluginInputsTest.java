package dev.cairn.cli.commands.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.cairn.cli.client.JsonTrees;

class PluginInputsTest {

    @Test
    void portsOfNamespacesGetDottedNamesAndRequiredComesFromTheirNamespace() {
        String schema = """
                {"type": "object", "properties": {
                  "x": {"title": "Int", "description": "the first addend", "$ref": "#/$defs/reference"},
                  "code": {"title": "InstalledCode", "x-cairn-has-default": true},
                  "metadata": {"type": "object", "properties": {
                    "label": {"title": "Str", "description": "a label"}}, "required": ["label"]}},
                 "required": ["x"]}""";
        List<PluginCommand.Input> inputs = PluginCommand.inputs(JsonTrees.parse(schema));
        assertEquals(
                List.of(
                        new PluginCommand.Input("x", "Int", true, false, "the first addend"),
                        new PluginCommand.Input("code", "InstalledCode", false, true, ""),
                        new PluginCommand.Input("metadata.label", "Str", true, false, "a label")),
                inputs);
    }
}
