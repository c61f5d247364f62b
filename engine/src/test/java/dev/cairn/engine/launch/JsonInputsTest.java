package dev.cairn.engine.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.engine.process.InvalidInputsException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.BoolData;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.FloatData;
import dev.cairn.storage.graph.InstalledCode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ListData;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.StrData;
import dev.cairn.storage.graph.StructureData;

/** Inputs in JSON, decoded by a process's spec: every form, namespaces, and every problem named by its port. */
class JsonInputsTest {

    static final JsonMapper JSON = JsonMapper.builder().build();

    final MapReferences references = new MapReferences();
    final JsonInputs decoder = new JsonInputs(references);

    static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    Map<String, Node> decode(String inputs) {
        return decoder.decode(EveryPort.DEFINITION, json(inputs)).asMap();
    }

    List<String> problems(String inputs) {
        return assertThrows(InvalidInputsException.class, () -> decode(inputs)).problems();
    }

    @Test
    void integerPortsTakeABareIntegerOrItsValueForm() {
        assertEquals(3, ((IntData) decode("{\"int\": 3}").get("int")).value());
        assertEquals(-4, ((IntData) decode("{\"int\": {\"value\": -4}}").get("int")).value());
        assertEquals(
                Long.MAX_VALUE,
                ((IntData) decode("{\"int\": 9223372036854775807}").get("int")).value());
        // as in JSON Schema, a number without a fractional part is an integer
        assertEquals(2, ((IntData) decode("{\"int\": 2.0}").get("int")).value());
        assertEquals(1000, ((IntData) decode("{\"int\": 1e3}").get("int")).value());
    }

    @Test
    void floatPortsTakeAnyNumber() {
        assertEquals(2.5, ((FloatData) decode("{\"float\": 2.5}").get("float")).value());
        assertEquals(2.0, ((FloatData) decode("{\"float\": 2}").get("float")).value());
        assertEquals(1e-3, ((FloatData) decode("{\"float\": {\"value\": 1e-3}}").get("float")).value());
    }

    @Test
    void stringAndBooleanPortsTakeTheirJsonTypeOrItsValueForm() {
        Map<String, Node> in = decode("{\"str\": \"fast\", \"bool\": {\"value\": false}}");
        assertEquals("fast", ((StrData) in.get("str")).value());
        assertFalse(((BoolData) in.get("bool")).value());
        assertEquals("", ((StrData) decode("{\"str\": {\"value\": \"\"}}").get("str")).value());
        assertTrue(((BoolData) decode("{\"bool\": true}").get("bool")).value());
    }

    @Test
    void dictPortsTakeAnObjectAndListPortsAnArray() {
        Map<String, Node> in = decode("{\"dict\": {\"ecut\": 30, \"smearing\": {\"kind\": \"mv\", \"width\": 0.01},"
                + " \"none\": null, \"value\": 1}, \"list\": [1, \"a\", null, [true]]}");
        Map<String, Object> expected = new HashMap<>();
        expected.put("ecut", 30L);
        expected.put("smearing", Map.of("kind", "mv", "width", 0.01));
        expected.put("none", null);
        expected.put("value", 1L);
        assertEquals(expected, ((DictData) in.get("dict")).asMap());
        assertEquals(Arrays.asList(1L, "a", null, List.of(true)), ((ListData) in.get("list")).values());
        assertEquals(Map.of(), ((DictData) decode("{\"dict\": {}}").get("dict")).asMap());
    }

    @Test
    void anObjectOfUuidAndMoreIsADictButUuidAloneIsAReference() {
        DictData stored = references.add(new DictData(Map.of("a", 1)));
        String uuid = stored.uuid().toString();
        assertSame(stored, decode("{\"dict\": {\"uuid\": \"" + uuid + "\"}}").get("dict"));
        DictData inline = (DictData)
                decode("{\"dict\": {\"uuid\": \"" + uuid + "\", \"n\": 1}}").get("dict");
        assertEquals(Map.of("uuid", uuid, "n", 1L), inline.asMap());
    }

    @Test
    void structurePortsTakeTheStructuresAttributes() {
        StructureData s = (StructureData)
                decode("{\"structure\": " + Structures.CUBIC_JSON + "}").get("structure");
        assertEquals(Structures.cubic().attributes(), s.attributes());
        assertFalse(s.isStored());
    }

    @Test
    void aReferenceGivesTheStoredNodeItNames() {
        IntData x = references.add(new IntData(7));
        InstalledCode code = references.add(new InstalledCode(1, "/bin/bash"));
        Map<String, Node> in = decode("{\"int\": {\"uuid\": \"" + x.uuid() + "\"}, \"code\": {\"uuid\": \""
                + code.uuid().toString().toUpperCase() + "\"}, \"data\": {\"uuid\": \"" + x.uuid() + "\"}}");
        assertSame(x, in.get("int"));
        assertSame(code, in.get("code"));
        assertSame(x, in.get("data"));
    }

    @Test
    void portsOfDataOrNodeMakeTheClassTheJsonTypeSays() {
        Map<String, Node> in = decode("{\"data\": 3, \"node\": 3.5}");
        assertEquals(3, ((IntData) in.get("data")).value());
        assertEquals(3.5, ((FloatData) in.get("node")).value());
        assertInstanceOf(FloatData.class, decode("{\"data\": 3.0}").get("data"));
        assertInstanceOf(StrData.class, decode("{\"data\": \"x\"}").get("data"));
        assertInstanceOf(BoolData.class, decode("{\"data\": false}").get("data"));
        assertInstanceOf(ListData.class, decode("{\"data\": [1]}").get("data"));
        // an object is a dict, even of the one key value
        assertEquals(
                Map.of("value", 1L),
                ((DictData) decode("{\"node\": {\"value\": 1}}").get("node")).asMap());
    }

    @Test
    void namespacesAreNestedObjects() {
        Map<String, Node> in = decode("{\"params\": {\"scf\": 12, \"mode\": \"fast\"}, \"int\": 1}");
        assertEquals(List.of("params.scf", "params.mode", "int"), List.copyOf(in.keySet()));
        assertEquals(12, ((IntData) in.get("params.scf")).value());
        assertEquals("fast", ((StrData) in.get("params.mode")).value());
    }

    @Test
    void aDynamicNamespaceTakesUndeclaredKeysOfItsType() {
        IntData stored = references.add(new IntData(5));
        Map<String, Node> in = decode("{\"extras\": {\"a\": 1, \"b_2\": {\"uuid\": \"" + stored.uuid() + "\"}}}");
        assertEquals(1, ((IntData) in.get("extras.a")).value());
        assertSame(stored, in.get("extras.b_2"));
    }

    @Test
    void decodedInputsPassTheSpecsValidationAndMissingOnesAreLeftToIt() {
        Map<String, Node> in = decode("{\"params\": {\"scf\": 1}, \"extras\": {\"a\": 2}}");
        assertEquals(
                in.keySet(),
                EveryPort.DEFINITION
                        .spec()
                        .validateInputs("test.every_port", in)
                        .keySet());
        // a required input that is missing is the spec's to report, at launch
        Map<String, Node> none = decode("{}");
        var e = assertThrows(
                InvalidInputsException.class,
                () -> EveryPort.DEFINITION.spec().validateInputs("test.every_port", none));
        assertEquals(List.of("required input 'params.scf' (IntData) is missing"), e.problems());
    }

    @Test
    void everyProblemIsReportedAtOnceNamingItsPort() {
        IntData x = references.add(new IntData(1));
        String unknownUuid = "01890a5d-ac96-774b-bcce-b302099a8057";
        var e = assertThrows(InvalidInputsException.class, () -> decode("""
                        {"z": 1,
                         "int": "three",
                         "float": {"value": "2.5"},
                         "str": {"uuid": "not-a-uuid"},
                         "bool": {"uuid": "%s"},
                         "dict": {"uuid": 12},
                         "list": {"uuid": "%s"},
                         "structure": {"cell": [[1, 0], [0, 1, 0], [0, 0, 1]], "pbc1": true, "pbc2": true,
                                       "pbc3": true, "kinds": [], "sites": []},
                         "data": null,
                         "code": "/bin/bash",
                         "node": 123456789012345678901234567890,
                         "remote": {"value": 1},
                         "params": {"scf": [1], "zz": 2},
                         "extras": {"a-b": 1, "c": "x", "d": {"a.b": 1}}}
                        """.formatted(unknownUuid, x.uuid())));
        assertEquals(
                List.of(
                        "'z' is not an input; valid inputs are [int, float, str, bool, dict, list, structure, data,"
                                + " node, code, installed, remote, folder, file, array, process, job, params, extras]",
                        "input 'int' takes an integer, {\"value\": integer} or {\"uuid\": \"…\"} (IntData), got a string",
                        "input 'float' takes a number, {\"value\": number} or {\"uuid\": \"…\"} (FloatData), got"
                                + " {\"value\": a string}",
                        "input 'str': 'not-a-uuid' is not a uuid",
                        "input 'bool': no node has uuid " + unknownUuid,
                        "input 'dict': a uuid is a string, got an integer",
                        "input 'list': expected ListData, got IntData " + x.uuid(),
                        "input 'structure': cell: three rows of three numbers, got [[1, 0], [0, 1, 0], [0, 0, 1]]",
                        "input 'data' is null; leave an input out to omit it",
                        "input 'code': give the uuid of a stored Code as {\"uuid\": \"…\"}; a Code cannot be given"
                                + " inline",
                        "input 'node': 123456789012345678901234567890 does not fit in 64 bits",
                        "input 'remote': give the uuid of a stored RemoteData as {\"uuid\": \"…\"}; a RemoteData"
                                + " cannot be given inline",
                        "input 'params.scf' takes an integer, {\"value\": integer} or {\"uuid\": \"…\"} (IntData), got"
                                + " an array",
                        "'params.zz' is not an input; namespace 'params' takes [scf, mode]",
                        "input 'extras.a-b': port name 'a-b' must be letters, digits and single underscores, starting"
                                + " with a letter and not ending with '_' ('__' joins namespaces in link labels)",
                        "input 'extras.c' takes an integer, {\"value\": integer} or {\"uuid\": \"…\"} (IntData), got"
                                + " a string",
                        "input 'extras.d' takes an integer, {\"value\": integer} or {\"uuid\": \"…\"} (IntData), got"
                                + " an object with keys [a.b]"),
                e.problems());
        assertTrue(e.getMessage().startsWith("invalid inputs for test.every_port: '" + "z' is not an input"));
        assertInstanceOf(InvalidInputException.class, e);
    }

    @Test
    void valuesTheDataClassRefusesAreNamedWhereTheyAre() {
        assertEquals(
                List.of("input 'dict': value: key 'a.b' contains '.', which separates the parts of a path in queries"),
                problems("{\"dict\": {\"a.b\": 1}}"));
        assertEquals(
                List.of("input 'list': value[1].n: integer 100000000000000000000 does not fit in 64 bits"),
                problems("{\"list\": [1, {\"n\": 100000000000000000000}]}"));
        assertEquals(
                List.of("input 'structure': kinds[1]: name must be a string no other kind has, got O"),
                problems("{\"structure\": " + Structures.CUBIC_JSON.replace("\"Ba\", \"symbols\"", "\"O\", \"symbols\"")
                        + "}"));
        assertEquals(List.of("input 'int': 1.0E30 does not fit in 64 bits"), problems("{\"int\": 1e30}"));
    }

    @Test
    void aNamespaceGivenAnythingButAnObjectIsAProblem() {
        assertEquals(
                List.of("namespace 'params' takes an object of its inputs, got an integer"),
                problems("{\"params\": 1}"));
        assertEquals(List.of("namespace 'params' is null; leave it out to omit it"), problems("{\"params\": null}"));
        var e = assertThrows(InvalidInputsException.class, () -> decoder.decode(EveryPort.DEFINITION, json("[1]")));
        assertEquals(List.of("the inputs must be an object of ports, got an array"), e.problems());
    }

    @Test
    void inlineValuesAreNewUnstoredNodes() {
        Map<String, Node> in = decode("{\"int\": 1, \"dict\": {\"a\": 1}}");
        assertTrue(in.values().stream().noneMatch(Node::isStored));
    }
}
