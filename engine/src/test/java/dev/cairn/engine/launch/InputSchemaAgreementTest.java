package dev.cairn.engine.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.exc.JsonNodeException;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.engine.process.InvalidInputsException;
import dev.cairn.engine.process.ProcessDefinition;
import dev.cairn.engine.testing.TestProcesses;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.StrData;

/**
 * The published input and metadata schemas say exactly what {@link JsonInputs} decodes: for a
 * port of every kind of node and a corpus of JSON values, a standard JSON Schema 2020-12
 * validator accepts a value exactly when the decoder does. What a schema cannot know (whether a
 * uuid names a node, and of which class; an integer's width inside a list; the data classes'
 * rules across values) is listed apart: there the schema lets through what the decoder refuses.
 */
class InputSchemaAgreementTest {

    static final JsonMapper JSON = JsonMapper.builder().build();
    static final SchemaRegistry REGISTRY = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    /** Values in every JSON type, every inline form, and near misses of each. */
    static final List<String> CORPUS = List.of(
            "0",
            "3",
            "-9223372036854775808",
            "9223372036854775807",
            "9223372036854775808",
            "2.0",
            "1e3",
            "2.5",
            "1e30",
            "\"\"",
            "\"text\"",
            "true",
            "false",
            "[]",
            "[1, \"a\", null, [true], {\"k\": [1.5]}]",
            "[{\"a.b\": 1}]",
            "{}",
            "{\"k\": 1}",
            "{\"k\": {\"l\": null}}",
            "{\"a.b\": 1}",
            "{\"\": 1}",
            "{\"k\": {\"a.b\": 1}}",
            "{\"value\": 3}",
            "{\"value\": 2.5}",
            "{\"value\": \"s\"}",
            "{\"value\": false}",
            "{\"value\": null}",
            "{\"value\": [1]}",
            "{\"value\": 3, \"unit\": \"eV\"}",
            "{\"uuid\": \"not-a-uuid\"}",
            "{\"uuid\": 12}",
            "{\"uuid\": \"01890a5d-ac96-774b-bcce-b302099a8057\", \"k\": 1}",
            "{\"id\": 12}",
            Structures.CUBIC_JSON,
            Structures.CUBIC_JSON.replace("\"pbc3\": false,", ""),
            Structures.CUBIC_JSON.replace(
                    "[[4.0, 0, 0], [0, 4.0, 0], [0, 0, 4.0]]", "[[4.0, 0], [0, 4.0, 0], [0, 0, 4.0]]"),
            Structures.CUBIC_JSON.replace("\"mass\": 15.999", "\"mass\": 15.999, \"spin\": 1"),
            Structures.CUBIC_JSON.replace("\"position\": [0, 0, 0]", "\"position\": [0, 0]"),
            Structures.CUBIC_JSON.replace("\"symbols\": [\"O\"]", "\"symbols\": [8]"),
            Structures.CUBIC_JSON.replace("\"pbc1\": true", "\"pbc1\": 1"));

    /**
     * Values whose shape the schema accepts but the data class refuses, and at which ports: an
     * integer literal beyond 64 bits (at a port of Data or Node it would be an IntData), and a
     * structure's rules across its values.
     */
    static final Map<String, Set<String>> REFUSED_BY_THE_DATA_CLASS = Map.of(
            "9223372036854775808",
            Set.of("data", "node"),
            "[100000000000000000000]",
            Set.of("list", "data", "node"),
            "{\"k\": 100000000000000000000}",
            Set.of("dict", "data", "node"),
            Structures.CUBIC_JSON.replace("\"name\": \"Ba\"", "\"name\": \"O\""),
            Set.of("structure"),
            Structures.CUBIC_JSON.replace(
                    "\"weights\": [1.0], \"mass\": 15.999", "\"weights\": [0.5, 0.5], \"mass\": 15.999"),
            Set.of("structure"),
            Structures.CUBIC_JSON.replace("\"kind_name\": \"Ba\"", "\"kind_name\": \"Ti\""),
            Set.of("structure"));

    final MapReferences references = new MapReferences();
    final JsonInputs decoder = new JsonInputs(references);
    final Schema inputSchema = REGISTRY.getSchema(
            JSON.writeValueAsString(EveryPort.DEFINITION.spec().inputSchema()));

    @Test
    void theSchemaAcceptsAValueAtAPortExactlyWhenTheDecoderDoes() {
        List<String> disagreements = new ArrayList<>();
        int accepted = 0;
        for (var port : EveryPort.PORTS.entrySet()) {
            List<String> samples = new ArrayList<>(CORPUS);
            samples.addAll(REFUSED_BY_THE_DATA_CLASS.keySet());
            Node fitting = references.add(EveryPort.fitting(port.getValue()));
            samples.add("{\"uuid\": \"" + fitting.uuid() + "\"}");
            for (String sample : samples) {
                JsonNode document = JSON.readTree("{\"" + port.getKey() + "\": " + sample + "}");
                boolean bySchema = bySchema(inputSchema, document);
                boolean refusedByTheClass =
                        REFUSED_BY_THE_DATA_CLASS.getOrDefault(sample, Set.of()).contains(port.getKey());
                boolean byDecoder = decodes(document);
                accepted += byDecoder ? 1 : 0;
                if (refusedByTheClass ? !bySchema || byDecoder : bySchema != byDecoder) {
                    disagreements.add(port.getKey() + " (" + port.getValue().getSimpleName() + ") " + sample.strip()
                            + ": schema " + (bySchema ? "accepts" : "refuses") + ", decoder "
                            + (byDecoder ? "accepts" : "refuses"));
                }
            }
        }
        assertEquals(List.of(), disagreements);
        assertTrue(accepted > 60, "the corpus should exercise accepted forms too, got " + accepted);
    }

    @Test
    void namespacesAndDynamicNamespacesAgreeToo() {
        for (String document : List.of(
                "{\"params\": {\"scf\": 1, \"mode\": \"fast\"}}",
                "{\"params\": {\"scf\": 1, \"other\": 2}}",
                "{\"params\": 1}",
                "{\"extras\": {\"a\": 1, \"b_2\": {\"value\": 2}}}",
                "{\"extras\": {\"a-b\": 1}}",
                "{\"extras\": {\"a__b\": 1}}",
                "{\"extras\": {\"a_\": 1}}",
                "{\"extras\": {\"a\": \"x\"}}",
                "{\"unknown\": 1}",
                "{\"int\": null}")) {
            JsonNode json = JSON.readTree(document);
            assertEquals(bySchema(inputSchema, json), decodes(json), document);
        }
    }

    @Test
    void aUuidThatNamesNoNodeOrOneOfAnotherClassFitsTheSchemaButIsRefused() {
        for (var port : EveryPort.PORTS.entrySet()) {
            List<String> samples = new ArrayList<>(List.of("{\"uuid\": \"01890a5d-ac96-774b-bcce-b302099a8057\"}"));
            if (port.getValue() != Data.class && port.getValue() != Node.class) {
                Node other = references.add(port.getValue() == StrData.class ? new IntData(1) : new StrData("s"));
                samples.add("{\"uuid\": \"" + other.uuid() + "\"}");
            }
            for (String sample : samples) {
                JsonNode document = JSON.readTree("{\"" + port.getKey() + "\": " + sample + "}");
                assertTrue(bySchema(inputSchema, document), port.getKey() + " " + sample);
                assertFalse(decodes(document), port.getKey() + " " + sample);
            }
        }
    }

    @Test
    void theMetadataSchemaAcceptsWhatTheDecoderDoes() {
        references.addComputer(7, "cluster");
        Schema job = REGISTRY.getSchema(JSON.writeValueAsString(JsonInputs.metadataSchema(TestProcesses.BASH_ADD)));
        Schema function = REGISTRY.getSchema(JSON.writeValueAsString(JsonInputs.metadataSchema(TestProcesses.ADD)));
        for (String metadata : List.of(
                "{}",
                "{\"use_cache\": true}",
                "{\"use_cache\": \"yes\"}",
                "{\"use_cache\": null}",
                "{\"computer\": \"cluster\"}",
                "{\"computer\": 7}",
                "{\"computer\": {\"uuid\": \"nope\"}}",
                "{\"options\": {\"resources\": {\"num_machines\": 2, \"num_mpiprocs_per_machine\": 4}}}",
                "{\"options\": {\"resources\": {\"num_machines\": 0}}}",
                "{\"options\": {\"resources\": {\"num_machines\": 2.5}}}",
                "{\"options\": {\"resources\": {\"num_machines\": 4294967296}}}",
                "{\"options\": {\"resources\": {\"tot_num_mpiprocs\": 4}}}",
                "{\"options\": {\"max_wallclock_seconds\": 3600, \"max_memory_kb\": 0}}",
                "{\"options\": {\"queue_name\": \"normal\", \"account\": \"p\", \"qos\": \"high\", \"withmpi\": true}}",
                "{\"options\": {\"queue_name\": 5}}",
                "{\"options\": {\"environment_variables\": {\"A\": \"1\"}, \"import_sys_environment\": false}}",
                "{\"options\": {\"environment_variables\": {\"A\": 1}}}",
                "{\"options\": {\"additional_retrieve_list\": [\"*.xml\"], \"prepend_text\": \"module load x\"}}",
                "{\"options\": {\"additional_retrieve_list\": [1]}}",
                "{\"options\": {\"account\": null}}",
                "{\"options\": []}",
                "{\"label\": \"x\"}")) {
            JsonNode json = JSON.readTree(metadata);
            assertEquals(bySchema(job, json), decodesMetadata(TestProcesses.BASH_ADD, json), "job " + metadata);
            assertEquals(bySchema(function, json), decodesMetadata(TestProcesses.ADD, json), metadata);
        }
    }

    /**
     * Whether the schema accepts {@code json}. The validator (networknt 3.0.6) throws instead of
     * failing when a float beyond 64 bits meets an integer's {@code minimum}; such a value is
     * beyond the bound, so that is a refusal.
     */
    static boolean bySchema(Schema schema, JsonNode json) {
        try {
            return schema.validate(json).isEmpty();
        } catch (JsonNodeException e) {
            if (!e.getMessage().contains("not in 64-bit `long` range")) {
                throw e;
            }
            return false;
        }
    }

    private boolean decodes(JsonNode document) {
        try {
            decoder.decode(EveryPort.DEFINITION, document);
            return true;
        } catch (InvalidInputsException e) {
            return false;
        }
    }

    private boolean decodesMetadata(ProcessDefinition definition, JsonNode metadata) {
        try {
            decoder.decode(definition, null, metadata);
            return true;
        } catch (InvalidInputsException e) {
            return false;
        }
    }
}
