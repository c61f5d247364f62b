package dev.cairn.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;

class ConfigFilesTest {

    private static final List<String> FIELDS = List.of("label", "work_dir", "transport_params");

    @TempDir
    Path dir;

    @Test
    void writtenYamlReadsBackAsTheSameFields() throws Exception {
        Path yaml = dir.resolve("c.yaml");
        Files.writeString(yaml, """
                label: here
                work_dir: /tmp/work
                transport_params:
                  port: 22
                """);
        ObjectNode fields = ConfigFiles.read(yaml, FIELDS);
        assertEquals(22, fields.path("transport_params").path("port").asInt());
        Path again = dir.resolve("again.yaml");
        ConfigFiles.write(ConfigFiles.yaml(fields), again);
        assertEquals(fields, ConfigFiles.read(again, FIELDS));
        Path json = dir.resolve("c.json");
        Files.writeString(
                json, "{\"label\": \"here\", \"work_dir\": \"/tmp/work\", \"transport_params\": {\"port\": 22}}");
        assertEquals(fields, ConfigFiles.read(json, FIELDS));
    }

    @Test
    void anUnknownFieldAFileThatIsNoMappingAndBadYamlAreUsageErrorsNamingThem() throws Exception {
        Path unknown = dir.resolve("u.yaml");
        Files.writeString(unknown, "label: x\nworkdir: /tmp\n");
        CliException e = assertThrows(CliException.class, () -> ConfigFiles.read(unknown, FIELDS));
        assertEquals(ExitCodes.USAGE, e.exitCode());
        assertTrue(e.getMessage().contains("unknown field 'workdir'"), e.getMessage());

        Path list = dir.resolve("l.yaml");
        Files.writeString(list, "- label\n");
        assertTrue(assertThrows(CliException.class, () -> ConfigFiles.read(list, FIELDS))
                .getMessage()
                .contains("mapping"));

        Path broken = dir.resolve("b.yaml");
        Files.writeString(broken, "label: [x\n");
        assertTrue(assertThrows(CliException.class, () -> ConfigFiles.read(broken, FIELDS))
                .getMessage()
                .contains("not valid YAML"));
        assertTrue(assertThrows(CliException.class, () -> ConfigFiles.read(dir.resolve("none.yaml"), FIELDS))
                .getMessage()
                .contains("cannot read"));
    }
}
