package dev.cairn.storage.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import dev.cairn.storage.errors.InvalidInputException;

class BadInputTest {

    private static final String KEY = "ab".repeat(32);

    private static String refused(Executable action) {
        return assertThrows(InvalidInputException.class, action).getMessage();
    }

    private static String refusedAttributes(Map<String, Object> attributes) {
        return refused(() -> NodeHasher.hash(HashInput.ofData("data.core.dict.Dict.", attributes, Map.of(), null)));
    }

    private static HashInput process(Map<String, String> inputs) {
        return new HashInput("process.workflow.workchain.WorkChainNode.", "m:wc", Map.of(), Map.of(), null, inputs);
    }

    @Test
    void unsupportedTypeIsNamedWithItsPath() {
        List<Object> row = new ArrayList<>(List.of(1.0, new Date(0), 3.0));
        String message = refusedAttributes(Map.of("cell", List.of(List.of(0.0, 0.0, 0.0), row)));
        assertEquals(
                "attributes.cell[1][1]: unsupported type java.util.Date (supported: " + AttributeWalker.SUPPORTED + ")",
                message);
        assertTrue(refusedAttributes(Map.of("a", Map.of("b", new Object())))
                .startsWith("attributes.a.b: unsupported type java.lang.Object"));
        assertTrue(refusedAttributes(Map.of("s", Set.of(1))).startsWith("attributes.s: unsupported type java.util."));
        assertTrue(
                refusedAttributes(Map.of("c", 'x')).startsWith("attributes.c: unsupported type java.lang.Character"));
        assertTrue(refusedAttributes(Map.of("o", new Object[] {1}))
                .startsWith("attributes.o: unsupported type [Ljava.lang.Object;"));
        assertTrue(refusedAttributes(Map.of("a.b", List.of(new Date())))
                .startsWith("attributes[\"a.b\"][0]: unsupported"));
    }

    @Test
    void nonFiniteFloatsAreRefused() {
        assertEquals(
                "attributes.x[2]: the float NaN is not finite; NaN and infinities are refused",
                refusedAttributes(Map.of("x", List.of(1.0, 2.0, Double.NaN))));
        assertEquals(
                "attributes.x: the float Infinity is not finite; NaN and infinities are refused",
                refusedAttributes(Map.of("x", Double.POSITIVE_INFINITY)));
        assertEquals(
                "attributes.x.y: the float -Infinity is not finite; NaN and infinities are refused",
                refusedAttributes(Map.of("x", Map.of("y", Float.NEGATIVE_INFINITY))));
    }

    @Test
    void badMapKeysAreRefused() {
        Map<Object, Object> nullKey = new HashMap<>();
        nullKey.put(null, 1);
        assertEquals("attributes.m: map key null is not a String", refusedAttributes(Map.of("m", nullKey)));
        assertEquals(
                "attributes.m: map key '7' of type java.lang.Integer is not a String",
                refusedAttributes(Map.of("m", Map.of(7, "seven"))));
    }

    @Test
    void unpairedSurrogatesAreRefused() {
        String message = refusedAttributes(Map.of("s", List.of("ok", "bad\uD800")));
        assertEquals(
                "attributes.s[1]: string has an unpaired surrogate U+D800 at index 3, which has no UTF-8 form",
                message);
        assertTrue(refusedAttributes(Map.of("k\uDC00", 1)).startsWith("attributes.k\uDC00: string has an unpaired"));
    }

    @Test
    void aMapThatContainsItselfIsRefusedNotOverflowed() {
        Map<String, Object> loop = new HashMap<>();
        loop.put("self", loop);
        String message = refusedAttributes(Map.of("loop", loop));
        assertTrue(message.startsWith("attributes.loop.self.self"), message);
        assertTrue(
                message.endsWith("...: nested more than 512 levels deep (does a map or list contain itself?)"),
                message);
    }

    @Test
    void nodeTypeMustBeADottedTypeString() {
        for (String bad : new String[] {null, "", ".", "data.core.int.Int", "data core.Int.", " ."}) {
            String message = refused(() -> HashInput.ofData(bad, Map.of(), Map.of(), null));
            assertTrue(message.startsWith("nodeType must be a dotted type string ending in '.'"), message);
        }
        assertTrue(refused(() -> new HashInput("data.Int.", " ", Map.of(), Map.of(), null, Map.of()))
                .startsWith("processType must be null or a non-blank"));
    }

    @Test
    void nullMapsAreRefused() {
        assertTrue(refused(() -> HashInput.ofData("data.Int.", null, Map.of(), null))
                .startsWith("attributes must not be null"));
        assertTrue(refused(() -> HashInput.ofData("data.Int.", Map.of(), null, null))
                .startsWith("files must not be null"));
        assertTrue(refused(() -> new HashInput("data.Int.", null, Map.of(), Map.of(), null, null))
                .startsWith("inputs must not be null"));
    }

    @Test
    void malformedFileTreesAreRefusedWithTheirPath() {
        assertEquals(
                "files: 'd/f' has key 'XYZ', which is not a lowercase SHA-256 hex key of 64 characters",
                refusedFiles(Map.of("o", Map.of("d", Map.of("o", Map.of("f", Map.of("k", "XYZ")))))));
        assertTrue(refusedFiles(Map.of("k", KEY)).startsWith("files: the root must be a directory"));
        assertTrue(refusedFiles(Map.of("o", Map.of("a/b", Map.of("k", KEY))))
                .startsWith("files: '' has an entry named 'a/b'; a name is a non-empty string without '/'"));
        assertTrue(refusedFiles(Map.of("o", Map.of("d", Map.of("o", Map.of("..", Map.of())))))
                .startsWith("files: 'd' has an entry named '..'"));
        assertTrue(refusedFiles(Map.of("o", Map.of("", Map.of()))).startsWith("files: '' has an entry named ''"));
        assertTrue(refusedFiles(Map.of("o", Map.of("f", Map.of("k", KEY, "o", Map.of()))))
                .startsWith(
                        "files: 'f' must be {\"k\": \"<sha256 hex>\"} (a file), {\"o\": {...}} (a directory) or {}"));
        assertTrue(refusedFiles(Map.of("o", Map.of("f", KEY))).startsWith("files: 'f' must be {\"k\""));
        assertTrue(refusedFiles(Map.of("o", Map.of("f", Map.of("k", 5)))).startsWith("files: 'f' must be"));
    }

    private static String refusedFiles(Map<String, Object> files) {
        return refused(() -> HashInput.ofData("data.core.folder.FolderData.", Map.of(), files, null));
    }

    @Test
    void badInputsAreRefused() {
        assertEquals(
                "inputs: the hash of input 'x' must be a node hash of 64 lowercase hex characters, not '"
                        + KEY.toUpperCase() + "'",
                refused(() -> process(Map.of("x", KEY.toUpperCase()))));
        assertTrue(refused(() -> process(Map.of("x", "abc"))).startsWith("inputs: the hash of input 'x'"));
        assertTrue(
                refused(() -> process(Map.of("", KEY))).startsWith("inputs: a link label must be a non-empty string"));
        assertEquals(
                "inputs: a data node (data.core.int.Int.) has no inputs in its hash, but got labels [x]",
                refused(() -> new HashInput("data.core.int.Int.", null, Map.of(), Map.of(), null, Map.of("x", KEY))));
    }
}
