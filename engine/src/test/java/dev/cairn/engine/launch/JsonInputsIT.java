package dev.cairn.engine.launch;

import static dev.cairn.engine.testing.EngineFixture.count;
import static dev.cairn.engine.testing.TestProcesses.ADD;
import static dev.cairn.engine.testing.TestProcesses.BASH_ADD;
import static dev.cairn.engine.testing.TestProcesses.RESULT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.engine.process.Inputs;
import dev.cairn.engine.process.InvalidInputsException;
import dev.cairn.engine.process.ProcessResult;
import dev.cairn.engine.testing.EngineFixture;
import dev.cairn.engine.testing.TestEngine;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.CalcJobNode;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.LinkTriple;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.PortableCode;
import dev.cairn.storage.graph.computers.ComputerStore;

/** Launches given in JSON, resolved against a real graph and run to their end in this JVM. */
class JsonInputsIT {

    @RegisterExtension
    static final TestEngine fixture = TestEngine.local().withObjects();

    @TempDir
    static Path tmp;

    static final JsonMapper JSON = JsonMapper.builder().build();

    static JsonInputs decoder;
    static long computer;

    @BeforeAll
    static void open() throws Exception {
        computer = EngineFixture.localComputer(
                fixture.engine(), "json-local", "core.direct", tmp.resolve("work"), Map.of());
        decoder = new JsonInputs(ReferenceResolver.of(
                fixture.engine().graph(), new ComputerStore(fixture.engine().database())));
    }

    static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    @Test
    void aStoredNodeByUuidAndAnInlineValueRunACalcfunction() throws Exception {
        IntData two = fixture.engine().graph().store(new IntData(2));
        long nodesBefore = count(fixture.db(), "SELECT count(*) FROM node");
        Inputs inputs = decoder.decode(
                ADD,
                json("{\"x\": {\"uuid\": \"" + two.uuid() + "\"}, \"y\": {\"value\": 3}}"),
                json("{\"use_cache\": false}"));
        ProcessResult r = fixture.engine().launcher().run(ADD, inputs);
        assertTrue(r.isFinishedOk(), r.node().processState() + " " + r.node().exception());
        assertEquals(5, r.get(RESULT).value());
        Map<String, Node> in = fixture.engine().graph().incoming(r.node()).stream()
                .collect(Collectors.toMap(
                        LinkTriple::label, l -> fixture.engine().graph().load(l.nodeId())));
        assertEquals(two.uuid(), in.get("x").uuid(), "the stored node itself, not a copy");
        assertEquals(3, ((IntData) in.get("y")).value());
        // the process, the inline y and the result; x was there already
        assertEquals(nodesBefore + 3, count(fixture.db(), "SELECT count(*) FROM node"));
    }

    @Test
    void aCalculationJobTakesItsCodeOptionsAndComputerFromJson() throws Exception {
        Path folder = Files.createDirectories(tmp.resolve("portable"));
        Files.writeString(folder.resolve("run.sh"), "#!/bin/bash\nexec bash\n");
        PortableCode code = fixture.engine().graph().store(new PortableCode(folder, "run.sh"));
        Inputs inputs = decoder.decode(
                BASH_ADD, json("{\"code\": {\"uuid\": \"" + code.uuid() + "\"}, \"x\": 20, \"y\": 22}"), json("""
                        {"computer": "json-local",
                         "options": {"resources": {"num_machines": 1, "num_mpiprocs_per_machine": 1},
                                     "max_wallclock_seconds": 600, "prepend_text": "export A=1",
                                     "additional_retrieve_list": ["aiida.in"]}}
                        """));
        ProcessResult r = fixture.engine().launcher().run(BASH_ADD, inputs);
        assertTrue(r.isFinishedOk(), r.node().processState() + " " + r.node().exception());
        assertEquals(42, r.get(RESULT).value());
        CalcJobNode job = (CalcJobNode) r.node();
        assertEquals(computer, job.computerId());
        assertEquals(600L, job.attribute("max_wallclock_seconds"));
        assertEquals(List.of("aiida.in"), job.attribute("additional_retrieve_list"));
    }

    @Test
    void aBadDocumentIsRefusedWholeAndStoresNothing() throws Exception {
        IntData stored = fixture.engine().graph().store(new IntData(1));
        Path folder = Files.createDirectories(tmp.resolve("portable-unplaced"));
        Files.writeString(folder.resolve("run.sh"), "#!/bin/bash\nexec bash\n");
        PortableCode code = fixture.engine().graph().store(new PortableCode(folder, "run.sh"));
        long nodesBefore = count(fixture.db(), "SELECT count(*) FROM node");
        var e = assertThrows(
                InvalidInputsException.class,
                () -> decoder.decode(
                        ADD,
                        json("{\"x\": {\"uuid\": \"01890a5d-ac96-774b-bcce-b302099a8057\"}, \"y\": 2, \"z\": 3}"),
                        json("{\"options\": {}}")));
        assertEquals(
                List.of(
                        "input 'x': no node has uuid 01890a5d-ac96-774b-bcce-b302099a8057",
                        "'z' is not an input; valid inputs are [x, y]",
                        "metadata 'options': only calculation jobs take options; test.add is a calcfunction"),
                e.problems());
        // a document that decodes is still checked against the spec when launched, before storing
        Inputs missingY = decoder.decode(ADD, json("{\"x\": {\"uuid\": \"" + stored.uuid() + "\"}}"));
        var atLaunch = assertThrows(
                InvalidInputsException.class, () -> fixture.engine().launcher().run(ADD, missingY));
        assertEquals("invalid inputs for test.add: required input 'y' (IntData) is missing", atLaunch.getMessage());
        // and a portable code needs a computer: the launch says how to name one in JSON
        Inputs withoutComputer =
                decoder.decode(BASH_ADD, json("{\"code\": {\"uuid\": \"" + code.uuid() + "\"}, \"x\": 1, \"y\": 1}"));
        var noComputer = assertThrows(
                InvalidInputException.class, () -> fixture.engine().launcher().run(BASH_ADD, withoutComputer));
        assertTrue(noComputer.getMessage().contains("metadata 'computer'"), noComputer.getMessage());
        assertEquals(nodesBefore, count(fixture.db(), "SELECT count(*) FROM node"));
    }
}
