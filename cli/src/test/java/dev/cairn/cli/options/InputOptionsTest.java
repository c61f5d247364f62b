package dev.cairn.cli.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;

class InputOptionsTest {

    @TempDir
    Path dir;

    private static InputOptions of(String... inputs) {
        InputOptions options = new InputOptions();
        options.inputs = List.of(inputs);
        return options;
    }

    @Test
    void valuesAreJsonWhenTheyReadAsJsonElseText() {
        assertEquals(
                JsonTrees.parse("{\"n\": 3, \"f\": 1.5, \"b\": true, \"s\": \"many\", \"q\": \"3\", \"l\": [1, 2],"
                        + " \"node\": {\"uuid\": \"0190c1a2\"}, \"e\": \"\", \"eq\": \"a=b\"}"),
                of(
                                "n=3",
                                "f=1.5",
                                "b=true",
                                "s=many",
                                "q=\"3\"",
                                "l=[1,2]",
                                "node={\"uuid\": \"0190c1a2\"}",
                                "e=",
                                "eq=a=b")
                        .toJson());
    }

    @Test
    void aDottedPortIsInANamespaceAndInputsOverrideTheFile() throws Exception {
        Path file = dir.resolve("inputs.json");
        Files.writeString(file, "{\"x\": 1, \"scf\": {\"a\": 1, \"b\": 2}}");
        InputOptions options = of("scf.b=3", "y=2");
        options.file = file;
        assertEquals(JsonTrees.parse("{\"x\": 1, \"scf\": {\"a\": 1, \"b\": 3}, \"y\": 2}"), options.toJson());
    }

    @Test
    void badInputIsAUsageErrorNamingIt() {
        CliException noEquals = assertThrows(CliException.class, () -> of("n").toJson());
        assertEquals(ExitCodes.USAGE, noEquals.exitCode());
        assertTrue(noEquals.getMessage().contains("'n' is not PORT=VALUE"), noEquals.getMessage());
        assertThrows(CliException.class, () -> of("a..b=1").toJson());
        InputOptions missing = of();
        missing.file = dir.resolve("none.json");
        assertTrue(
                assertThrows(CliException.class, missing::toJson).getMessage().contains("cannot read"));
    }

    @Test
    void aYamlFileGivesTheInputsWithTheirTypes() throws Exception {
        Path file = dir.resolve("inputs.yaml");
        Files.writeString(
                file, "x: 2\ny: 3.5\nname: water\nflags: [1, 2]\nscf:\n  cutoff: 30\n  node: {uuid: 0190c1a2}\n");
        InputOptions options = of("x=5");
        options.file = file;
        assertEquals(
                JsonTrees.parse("{\"x\": 5, \"y\": 3.5, \"name\": \"water\", \"flags\": [1, 2],"
                        + " \"scf\": {\"cutoff\": 30, \"node\": {\"uuid\": \"0190c1a2\"}}}"),
                options.toJson());
    }

    @Test
    void aFileThatIsNoMappingOrNotYamlIsAUsageErrorNamingIt() throws Exception {
        Path list = dir.resolve("list.yml");
        Files.writeString(list, "- 1\n- 2\n");
        InputOptions options = of();
        options.file = list;
        CliException notAMapping = assertThrows(CliException.class, options::toJson);
        assertEquals(ExitCodes.USAGE, notAMapping.exitCode());
        assertTrue(
                notAMapping
                        .getMessage()
                        .contains("--inputs " + list + " must hold a mapping (name: value), not an array"),
                notAMapping.getMessage());
        Path broken = dir.resolve("broken.json");
        Files.writeString(broken, "{\"x\": ");
        options.file = broken;
        CliException notJson = assertThrows(CliException.class, options::toJson);
        assertTrue(notJson.getMessage().contains("is not valid JSON"), notJson.getMessage());
    }
}
