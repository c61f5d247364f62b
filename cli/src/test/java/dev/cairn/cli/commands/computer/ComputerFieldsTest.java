package dev.cairn.cli.commands.computer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;

class ComputerFieldsTest {

    private static final String COMPUTER = """
            {"uuid": "0191d3a5-7b7e-7c1a-9f00-1c2d3e4f5a6b", "label": "cluster", "hostname": "login.example.org",
             "description": "", "transportType": "core.ssh", "schedulerType": "core.slurm",
             "settings": {"workdir": "/scratch/alice", "max_connections": 4, "mpirun_command": "srun",
              "transport_params": {"username": "alice", "key_filename": "/home/alice/.ssh/id_ed25519"}},
             "enabled": true, "users": [], "nodes": 0}""";

    @Test
    void theFieldsOfAShownComputerMakeTheRequestThatSetsItUpAgain() {
        JsonNode computer = JsonTrees.parse(COMPUTER);
        ObjectNode fields = ComputerFields.of(computer);
        assertEquals("/scratch/alice", fields.path("work_dir").asString());
        assertFalse(fields.has("description"), "an empty description is left out");
        assertFalse(fields.has("uuid"));

        ObjectNode request = ComputerFields.request(fields);
        assertEquals("cluster", request.path("label").asString());
        assertEquals("core.ssh", request.path("transportType").asString());
        assertEquals("core.slurm", request.path("schedulerType").asString());
        assertEquals(computer.path("settings"), request.path("settings"));
    }

    @Test
    void numericSettingsGivenAsTextAreSentAsNumbersAndOtherTextIsRefused() {
        assertTrue(ComputerFields.typed(
                        "max_connections", JsonTrees.MAPPER.getNodeFactory().stringNode("4"))
                .isInt());
        assertEquals(
                0.5,
                ComputerFields.typed(
                                "retry_initial_interval",
                                JsonTrees.MAPPER.getNodeFactory().stringNode("0.5"))
                        .asDouble());
        assertTrue(ComputerFields.typed(
                        "prepend_text", JsonTrees.MAPPER.getNodeFactory().stringNode("4"))
                .isString());
        CliException e = assertThrows(
                CliException.class,
                () -> ComputerFields.typed(
                        "max_connections", JsonTrees.MAPPER.getNodeFactory().stringNode("many")));
        assertEquals(ExitCodes.USAGE, e.exitCode());
        assertTrue(e.getMessage().contains("max_connections"), e.getMessage());
    }
}
