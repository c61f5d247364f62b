package dev.cairn.cli.options;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import dev.cairn.cli.client.CliException;
import dev.cairn.cli.client.ExitCodes;
import dev.cairn.cli.client.JsonTrees;

/** The options typed by the schema the server gives for them (the shape of its metadata schema's options). */
class JobOptionFlagsTest {

    private static final JsonNode SCHEMA = JsonTrees.parse("""
            {"type": "object", "additionalProperties": false, "properties": {
              "resources": {"type": "object", "properties": {
                "num_machines": {"type": "integer", "minimum": 1, "description": "machines to run on"},
                "num_mpiprocs_per_machine": {"type": "integer", "description": "MPI processes on each"}}},
              "max_wallclock_seconds": {"type": "integer", "description": "wall-clock limit in seconds"},
              "queue_name": {"type": "string", "description": "SLURM partition or PBS queue"},
              "account": {"type": "string", "description": "account charged"},
              "withmpi": {"type": "boolean", "description": "under MPI"},
              "environment_variables": {"type": "object", "additionalProperties": {"type": "string"}},
              "additional_retrieve_list": {"type": "array", "items": {"type": "string"}}}}""");

    private static JsonNode options(String... given) {
        JobOptionFlags flags = new JobOptionFlags();
        flags.options = List.of(given);
        return flags.toJson(SCHEMA, "core.shell");
    }

    @Test
    void eachValueTakesTheTypeTheSchemaGivesItsOption() {
        assertEquals(
                JsonTrees.parse("""
                        {"resources": {"num_machines": 2, "num_mpiprocs_per_machine": 4},
                         "account": "12345", "queue_name": "true", "withmpi": true, "max_wallclock_seconds": 3600,
                         "environment_variables": {"OMP_NUM_THREADS": "4", "EMPTY": ""},
                         "additional_retrieve_list": ["a.txt", "*.log"]}"""),
                options(
                        "num_machines=2",
                        "resources.num_mpiprocs_per_machine=4",
                        "account=12345",
                        "queue_name=true",
                        "withmpi=true",
                        "max_wallclock_seconds=3600",
                        "environment_variables.OMP_NUM_THREADS=4",
                        "environment_variables.EMPTY=",
                        "additional_retrieve_list=[\"a.txt\", \"*.log\"]"));
    }

    @Test
    void aNameTheSchemaLacksIsRefusedWithTheNamesItHas() {
        CliException e = assertThrows(CliException.class, () -> options("num_machine=2"));
        assertEquals(ExitCodes.USAGE, e.exitCode());
        assertTrue(
                e.getMessage()
                        .contains("--option num_machine=2: core.shell has no job option 'num_machine'; it has"
                                + " num_machines, num_mpiprocs_per_machine, max_wallclock_seconds, queue_name,"),
                e.getMessage());
    }

    @Test
    void aValueOfTheWrongTypeIsRefusedNamingTheOptionAndWhatItTakes() {
        CliException e = assertThrows(CliException.class, () -> options("max_wallclock_seconds=soon"));
        assertEquals(ExitCodes.USAGE, e.exitCode());
        assertTrue(e.getMessage().contains("max_wallclock_seconds=soon: expected an integer"), e.getMessage());

        e = assertThrows(CliException.class, () -> options("withmpi=yes"));
        assertTrue(e.getMessage().contains("withmpi=yes: expected true or false"), e.getMessage());

        e = assertThrows(CliException.class, () -> options("num_machines=1.5"));
        assertTrue(e.getMessage().contains("expected an integer, got '1.5'"), e.getMessage());

        e = assertThrows(CliException.class, () -> options("additional_retrieve_list=a.txt"));
        assertTrue(e.getMessage().contains("expected a JSON array"), e.getMessage());
    }

    @Test
    void anOptionThatIsNotNameEqualsValueIsRefused() {
        CliException e = assertThrows(CliException.class, () -> options("num_machines"));
        assertTrue(e.getMessage().contains("'num_machines' is not NAME=VALUE"), e.getMessage());
        e = assertThrows(CliException.class, () -> options("environment_variables.=x"));
        assertTrue(e.getMessage().contains("'environment_variables.' is no option name"), e.getMessage());
    }

    @Test
    void theListingPutsResourcesFirstByTheirOwnNames() {
        List<String> names = JobOptionFlags.listed(SCHEMA).stream()
                .map(JobOptionFlags.Listed::name)
                .toList();
        assertEquals(
                List.of(
                        "num_machines",
                        "num_mpiprocs_per_machine",
                        "max_wallclock_seconds",
                        "queue_name",
                        "account",
                        "withmpi",
                        "environment_variables",
                        "additional_retrieve_list"),
                names);
    }
}
