package dev.cairn.engine.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.InvalidInputsException;
import dev.cairn.engine.process.JobOptions;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.testing.TestProcesses;
import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.graph.computers.Computer;

/** A launch's metadata in JSON: caching, a calculation job's options and computer, and what is refused. */
class JsonLaunchMetadataTest {

    static final JsonMapper JSON = JsonMapper.builder().build();

    final MapReferences references = new MapReferences();
    final JsonInputs decoder = new JsonInputs(references);
    final Computer cluster = references.addComputer(42, "cluster");

    static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    Inputs decode(ProcessDefinition definition, String metadata) {
        return decoder.decode(definition, json("{}"), json(metadata));
    }

    List<String> problems(ProcessDefinition definition, String metadata) {
        return assertThrows(InvalidInputsException.class, () -> decode(definition, metadata))
                .problems();
    }

    @Test
    void useCacheOverridesThePolicyForAnyProcess() {
        assertEquals(true, decode(TestProcesses.ADD, "{\"use_cache\": true}").cacheOverride());
        assertEquals(
                false,
                decode(TestProcesses.ChildThenAdd.DEFINITION, "{\"use_cache\": false}")
                        .cacheOverride());
        assertNull(decode(TestProcesses.ADD, "{}").cacheOverride());
        assertNull(decoder.decode(TestProcesses.ADD, json("{}"), null).cacheOverride());
    }

    @Test
    void optionsHaveTheNamesOfTheirAttributes() {
        JobOptions full = JobOptions.defaults()
                .withResources(2, 64, 4)
                .withLimits(3600L, 1_000_000L)
                .withQueue("normal", "proj42", "high")
                .withCustomSchedulerCommands("#SBATCH --constraint=gpu")
                .withText("module load qe", "echo done")
                .withMpi(true)
                .withEnvironment(Map.of("OMP_NUM_THREADS", "1"), false)
                .withAdditionalRetrieveList(List.of("*.xml", "out/log"));
        String metadata = "{\"options\": " + JsonCodec.write(full.toAttributes()) + "}";
        assertEquals(full, decode(TestProcesses.BASH_ADD, metadata).jobOptions());
        assertEquals(
                JobOptions.defaults().withResources(3, null, 1),
                decode(TestProcesses.BASH_ADD, "{\"options\": {\"resources\": {\"num_machines\": 3}}}")
                        .jobOptions());
    }

    @Test
    void theOptionsSchemaNamesExactlyTheAttributes() {
        JobOptions full =
                JobOptions.defaults().withResources(1, 2, 1).withLimits(1L, 1L).withQueue("q", "a", "s");
        @SuppressWarnings("unchecked")
        Map<String, Object> options = (Map<String, Object>)
                properties(JsonInputs.metadataSchema(TestProcesses.BASH_ADD)).get("options");
        assertEquals(full.toAttributes().keySet(), properties(options).keySet());
        @SuppressWarnings("unchecked")
        Map<String, Object> resources =
                (Map<String, Object>) full.toAttributes().get("resources");
        @SuppressWarnings("unchecked")
        Map<String, Object> resourcesSchema =
                (Map<String, Object>) properties(options).get("resources");
        assertEquals(resources.keySet(), properties(resourcesSchema).keySet());
    }

    @Test
    void theMetadataSchemaOfAProcessThatIsNoJobHasUseCacheAlone() {
        assertEquals(
                List.of("use_cache"),
                List.copyOf(
                        properties(JsonInputs.metadataSchema(TestProcesses.ADD)).keySet()));
        assertEquals(
                List.of("use_cache", "options", "computer"),
                List.copyOf(properties(JsonInputs.metadataSchema(TestProcesses.BASH_ADD))
                        .keySet()));
    }

    @Test
    void everyUnknownIllTypedOrRefusedOptionIsNamed() {
        assertEquals(
                List.of(
                        "metadata 'options.resources.num_machines': option num_machines must be at least 1, not 0",
                        "metadata 'options.resources.tot_num_mpiprocs' is not a resource; valid resources are"
                                + " [num_machines, num_mpiprocs_per_machine, num_cores_per_mpiproc]",
                        "metadata 'options.resources.num_cores_per_mpiproc': 4294967296 does not fit in 32 bits",
                        "metadata 'options.max_wallclock_seconds': expected an integer, got a string",
                        "metadata 'options.max_memory_kb': max memory must be positive kB, not -1",
                        "metadata 'options.queue_name': expected a string, got an integer",
                        "metadata 'options.queue' is not an option; valid options are [resources,"
                                + " max_wallclock_seconds, max_memory_kb, queue_name, account, qos,"
                                + " custom_scheduler_commands, prepend_text, append_text, withmpi,"
                                + " environment_variables, import_sys_environment, additional_retrieve_list]",
                        "metadata 'options.num_mpiprocs_per_machine' is a resource: give it in"
                                + " options.resources.num_mpiprocs_per_machine (resources are [num_machines,"
                                + " num_mpiprocs_per_machine, num_cores_per_mpiproc])",
                        "metadata 'options.withmpi': expected a boolean, got a string",
                        "metadata 'options.environment_variables.OMP_NUM_THREADS': expected a string, got an integer",
                        "metadata 'options.additional_retrieve_list': retrieve list entry '/etc/passwd' must be a path"
                                + " relative to the work directory",
                        "metadata 'options.account' is null; leave the option out for its default"),
                problems(TestProcesses.BASH_ADD, """
                        {"options": {"resources": {"num_machines": 0, "tot_num_mpiprocs": 4,
                                                   "num_cores_per_mpiproc": 4294967296},
                                     "max_wallclock_seconds": "1h", "max_memory_kb": -1, "queue_name": 5, "queue": "a",
                                     "num_mpiprocs_per_machine": 2, "withmpi": "yes", "environment_variables": {"OMP_NUM_THREADS": 1},
                                     "additional_retrieve_list": ["out", "/etc/passwd"], "account": null}}
                        """));
    }

    @Test
    void aComputerIsNamedByLabelOrUuid() {
        assertEquals(
                42L,
                decode(TestProcesses.BASH_ADD, "{\"computer\": \"cluster\"}").computerId());
        assertEquals(
                42L,
                decode(TestProcesses.BASH_ADD, "{\"computer\": {\"uuid\": \"" + cluster.uuid() + "\"}}")
                        .computerId());
        assertEquals(
                List.of("metadata 'computer': no computer is labelled 'laptop'"),
                problems(TestProcesses.BASH_ADD, "{\"computer\": \"laptop\"}"));
        assertEquals(
                List.of("metadata 'computer': no computer has uuid 01890a5d-ac96-774b-bcce-b302099a8057"),
                problems(
                        TestProcesses.BASH_ADD,
                        "{\"computer\": {\"uuid\": \"01890a5d-ac96-774b-bcce-b302099a8057\"}}"));
        assertEquals(
                List.of("metadata 'computer': expected a computer's label or {\"uuid\": \"…\"}, got an integer"),
                problems(TestProcesses.BASH_ADD, "{\"computer\": 42}"));
    }

    @Test
    void optionsAndComputerAreForCalculationJobsOnly() {
        assertEquals(
                List.of(
                        "metadata 'options': only calculation jobs take options; test.add is a calcfunction",
                        "metadata 'computer': only calculation jobs take computer; test.add is a calcfunction"),
                problems(TestProcesses.ADD, "{\"options\": {}, \"computer\": \"cluster\"}"));
        assertEquals(
                List.of("metadata 'options': only calculation jobs take options; test.child_then_add is a work chain"),
                problems(TestProcesses.ChildThenAdd.DEFINITION, "{\"options\": {}}"));
    }

    @Test
    void unknownMetadataKeysAndNullsAreProblems() {
        assertEquals(
                List.of(
                        "metadata 'label' is not a metadata key; valid keys are [use_cache]",
                        "metadata 'use_cache': expected a boolean, got a string"),
                problems(TestProcesses.ADD, "{\"label\": \"x\", \"use_cache\": \"yes\"}"));
        assertEquals(
                List.of(
                        "metadata 'dry_run' is not a metadata key; valid keys are [use_cache, options, computer]",
                        "metadata 'use_cache' is null; leave it out for the default"),
                problems(TestProcesses.BASH_ADD, "{\"dry_run\": true, \"use_cache\": null}"));
        var e = assertThrows(InvalidInputsException.class, () -> decoder.decode(TestProcesses.ADD, null, json("[]")));
        assertEquals(List.of("the metadata must be an object, got an array"), e.problems());
    }

    @Test
    void problemsOfTheInputsAndTheMetadataComeTogether() {
        var e = assertThrows(
                InvalidInputsException.class,
                () -> decoder.decode(TestProcesses.ADD, json("{\"x\": \"one\"}"), json("{\"use_cache\": 1}")));
        assertEquals(
                List.of(
                        "input 'x' takes an integer, {\"value\": integer} or {\"uuid\": \"…\"} (IntData), got a string",
                        "metadata 'use_cache': expected a boolean, got an integer"),
                e.problems());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> properties(Map<String, Object> schema) {
        return (Map<String, Object>) schema.get("properties");
    }
}
