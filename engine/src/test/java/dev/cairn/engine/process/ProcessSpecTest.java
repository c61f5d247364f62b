package dev.cairn.engine.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.FloatData;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.Node;
import dev.cairn.storage.graph.StrData;

class ProcessSpecTest {

    static final InputPort<IntData> X = InputPort.required("x", IntData.class)
            .withValidator(x -> x.value() > 100 ? "must be at most 100, got " + x.value() : null)
            .withHelp("the x");
    static final InputPort<IntData> STEPS =
            InputPort.optional("options.steps", IntData.class).withDefault(() -> new IntData(3));
    static final InputPort<StrData> MODE = InputPort.optional("options.mode", StrData.class);
    static final OutputPort<IntData> RESULT = OutputPort.required("result", IntData.class);
    static final OutputPort<FloatData> EXTRA = OutputPort.optional("details.extra", FloatData.class);

    static final ProcessSpec SPEC = ProcessSpec.builder()
            .input(X)
            .input(STEPS)
            .input(MODE)
            .inputNamespace("extras", ns -> ns.asDynamic(IntData.class))
            .output(RESULT)
            .output(EXTRA)
            .exitCode(ExitCode.of(400, "ERROR_TOO_BIG", "too big"))
            .build();

    @Test
    void validInputsGetTheirDefaults() {
        Map<String, Node> valid = SPEC.validateInputs("t.p", Map.of("x", new IntData(1), "extras.a", new IntData(5)));
        assertEquals(3, ((IntData) valid.get("options.steps")).value());
        assertEquals(5, ((IntData) valid.get("extras.a")).value());
        assertEquals(3, new ProcessInputs(valid).get(STEPS).value());
        assertNull(new ProcessInputs(valid).get(MODE));
        assertEquals(Map.of("a", valid.get("extras.a")), new ProcessInputs(valid).namespace("extras"));
    }

    @Test
    void everyProblemIsReportedNamingItsPort() {
        var e = assertThrows(
                InvalidInputsException.class,
                () -> SPEC.validateInputs(
                        "t.p",
                        Map.of("options.mode", new IntData(1), "extras.b", new StrData("no"), "y", new IntData(2))));
        List<String> p = e.problems();
        assertTrue(p.contains("required input 'x' (IntData) is missing"), p.toString());
        assertTrue(p.contains("input 'options.mode': expected StrData, got IntData"), p.toString());
        assertTrue(
                p.contains("input 'extras.b' in dynamic namespace 'extras': expected IntData, got StrData"),
                p.toString());
        assertTrue(
                p.stream()
                        .anyMatch(s -> s.startsWith("'y' is not an input; valid inputs are [x, options.steps,"
                                + " options.mode, extras.*]")),
                p.toString());
        assertTrue(e.getMessage().startsWith("invalid inputs for t.p: "), e.getMessage());
    }

    @Test
    void validatorsSeeTheValue() {
        var e = assertThrows(
                InvalidInputsException.class, () -> SPEC.validateInputs("t.p", Map.of("x", new IntData(101))));
        assertEquals(List.of("input 'x': must be at most 100, got 101"), e.problems());
    }

    @Test
    void namespaceAndSpecValidatorsSeeTheWholeMapping() {
        ProcessSpec spec = ProcessSpec.builder()
                .input(InputPort.required("a.lo", IntData.class))
                .input(InputPort.required("a.hi", IntData.class))
                .inputNamespace(
                        "a",
                        ns -> ns.withValidator(m -> ((IntData) m.get("lo")).value() > ((IntData) m.get("hi")).value()
                                ? "lo is above hi"
                                : null))
                .validator(all -> all.size() > 5 ? "too many" : null)
                .build();
        var e = assertThrows(
                InvalidInputsException.class,
                () -> spec.validateInputs("t.p", Map.of("a.lo", new IntData(3), "a.hi", new IntData(1))));
        assertEquals(List.of("namespace 'a': lo is above hi"), e.problems());
    }

    @Test
    void outputsAreCheckedWithExitCodesTenAndEleven() {
        assertNull(SPEC.checkOutputs(Map.of("result", new IntData(1))));
        assertEquals(11, SPEC.checkOutputs(Map.of()).status());
        assertEquals(
                "the process did not register a required output: 'result'",
                SPEC.checkOutputs(Map.of()).message());
        assertEquals(10, SPEC.checkOutputs(Map.of("result", new FloatData(1.0))).status());
        assertEquals(
                10,
                SPEC.checkOutputs(Map.of("result", new IntData(1), "other", new IntData(2)))
                        .status());
    }

    @Test
    void requiredNamespacesDynamicInputsAndOutputNamespaces() {
        ProcessSpec spec = ProcessSpec.builder()
                .input(InputPort.optional("params.a", IntData.class))
                .inputNamespace("params", ns -> ns.asRequired(true))
                .dynamicInputs(StrData.class)
                .outputNamespace("details", ns -> ns.asDynamic(IntData.class))
                .build();
        var e = assertThrows(InvalidInputsException.class, () -> spec.validateInputs("t.p", Map.of()));
        assertEquals(List.of("namespace 'params' is required but empty"), e.problems());
        Map<String, Node> valid =
                spec.validateInputs("t.p", Map.of("params.a", new IntData(1), "tag", new StrData("t")));
        assertEquals("t", ((StrData) valid.get("tag")).value());
        assertEquals(
                List.of("input 'n' in dynamic namespace '': expected StrData, got IntData"),
                assertThrows(
                                InvalidInputsException.class,
                                () -> spec.validateInputs(
                                        "t.p", Map.of("params.a", new IntData(1), "n", new IntData(2))))
                        .problems());
        assertNull(spec.checkOutputs(Map.of("details.n", new IntData(2))));
        assertEquals(
                10, spec.checkOutputs(Map.of("details.n", new FloatData(2.0))).status());
    }

    @Test
    void exposedInputsAreCopiedIntoANamespace() {
        ProcessSpec parent = ProcessSpec.builder()
                .exposeInputs(SPEC, "child", Set.of(), Set.of("options.mode"))
                .build();
        Map<String, Node> valid = parent.validateInputs("t.parent", Map.of("child.x", new IntData(1)));
        assertEquals(3, ((IntData) valid.get("child.options.steps")).value());
        assertThrows(
                InvalidInputsException.class,
                () -> parent.validateInputs(
                        "t.parent", Map.of("child.x", new IntData(1), "child.options.mode", new StrData("m"))));
        ProcessSpec outs = ProcessSpec.builder().exposeOutputs(SPEC, "child").build();
        assertEquals(11, outs.checkOutputs(Map.of()).status());
    }

    @Test
    void exitCodesAreDeclaredOnceAndFoundByLabel() {
        assertEquals(400, SPEC.exitCode("ERROR_TOO_BIG").status());
        assertEquals(1, SPEC.exitCodes().get(1).status());
        assertThrows(
                InvalidInputException.class,
                () -> ProcessSpec.builder().exitCode(ExitCode.of(400, "A", "")).exitCode(ExitCode.of(400, "B", "")));
        assertThrows(
                InvalidInputException.class,
                () -> ProcessSpec.builder().input(X).input(X));
    }

    @Test
    void badPortNamesAreRefused() {
        var e = assertThrows(InvalidInputException.class, () -> InputPort.required("a__b", IntData.class));
        assertTrue(e.getMessage().contains("a__b"));
        assertThrows(InvalidInputException.class, () -> InputPort.required("x_", IntData.class));
    }

    @Test
    @SuppressWarnings("unchecked")
    void theSpecDescribesItselfAsJsonSchema() {
        Map<String, Object> schema = SPEC.inputSchema();
        assertEquals("https://json-schema.org/draft/2020-12/schema", schema.get("$schema"));
        assertEquals(List.of("x"), schema.get("required"));
        Map<String, Object> props = (Map<String, Object>) schema.get("properties");
        Map<String, Object> x = (Map<String, Object>) props.get("x");
        assertEquals(IntData.TYPE, x.get("x-cairn-node-type"));
        assertEquals("the x", x.get("description"));
        Map<String, Object> options = (Map<String, Object>) props.get("options");
        assertEquals(false, options.get("additionalProperties"));
        Map<String, Object> extras = (Map<String, Object>) props.get("extras");
        assertEquals(IntData.TYPE, ((Map<String, Object>) extras.get("additionalProperties")).get("x-cairn-node-type"));
        assertEquals(List.of("result"), SPEC.outputSchema().get("required"));
    }
}
