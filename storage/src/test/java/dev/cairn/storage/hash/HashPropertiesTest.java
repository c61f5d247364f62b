package dev.cairn.storage.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.UnaryOperator;

import org.bouncycastle.crypto.digests.Blake2bDigest;
import org.junit.jupiter.api.Test;

class HashPropertiesTest {

    private static final String HASH_A = "aa".repeat(32);
    private static final String HASH_B = "bb".repeat(32);
    private static final UUID COMPUTER = UUID.fromString("11111111-2222-3333-4444-555555555555");

    /** The hash of a Dict node with one attribute {@code x}. */
    private static String hashOfX(Object x) {
        Map<String, Object> attributes = new HashMap<>();
        attributes.put("x", x);
        return NodeHasher.hash(HashInput.ofData("data.core.dict.Dict.", attributes, Map.of(), null));
    }

    private static String hashOfAttributes(Map<String, Object> attributes) {
        return NodeHasher.hash(HashInput.ofData("data.core.dict.Dict.", attributes, Map.of(), null));
    }

    private static Map<String, Object> mapWithNull(String key) {
        Map<String, Object> map = new HashMap<>();
        map.put(key, null);
        return map;
    }

    @Test
    void keyOrderDoesNotMatter() {
        Map<String, Object> forward = new LinkedHashMap<>();
        Map<String, Object> backward = new LinkedHashMap<>();
        List<String> keys = List.of("a", "b", "B", "ab", "é", "\uE000", "\uD83E\uDDEA", "", "a.b", "z");
        for (int i = 0; i < keys.size(); i++) {
            forward.put(keys.get(i), Map.of("p", i, "q", List.of(i, "v")));
        }
        for (int i = keys.size() - 1; i >= 0; i--) {
            Map<String, Object> inner = new LinkedHashMap<>();
            inner.put("q", List.of(i, "v"));
            inner.put("p", i);
            backward.put(keys.get(i), inner);
        }
        assertEquals(hashOfAttributes(forward), hashOfAttributes(backward));
        assertEquals(hashOfAttributes(forward), hashOfAttributes(new TreeMap<>(backward)));
        assertEquals(hashOfAttributes(forward), hashOfAttributes(new HashMap<>(backward)));
    }

    @Test
    void listOrderMatters() {
        assertNotEquals(hashOfX(List.of(1, 2)), hashOfX(List.of(2, 1)));
    }

    @Test
    void ambiguousValuesHashDifferently() {
        assertNotEquals(hashOfX(List.of(List.of("a"), "b")), hashOfX(List.of(List.of("a", "b"))));
        assertNotEquals(hashOfX(List.of("ab")), hashOfX(List.of("a", "b")));
        assertNotEquals(hashOfX("1"), hashOfX(1L));
        assertNotEquals(hashOfX(1L), hashOfX(1.5));
        assertNotEquals(hashOfX(1L), hashOfX(1.0));
        assertNotEquals(hashOfX(2L), hashOfX(2.0));
        assertNotEquals(hashOfX(true), hashOfX(1L));
        assertNotEquals(hashOfX(false), hashOfX(0L));
        assertNotEquals(hashOfX(false), hashOfX(null));
        assertNotEquals(hashOfX(""), hashOfX(null));
        assertNotEquals(hashOfX(Map.of()), hashOfX(List.of()));
        assertNotEquals(hashOfX(List.of()), hashOfX(null));
        assertNotEquals(hashOfX("1e0"), hashOfX(1.0));
        assertNotEquals(hashOfX(COMPUTER), hashOfX(COMPUTER.toString()));
        assertNotEquals(hashOfX(Map.of("ab", "c")), hashOfX(Map.of("a", "bc")));
        assertNotEquals(hashOfX(Map.of("a", List.of())), hashOfX(List.of("a", List.of())));
        // null value vs missing key
        assertNotEquals(hashOfAttributes(mapWithNull("y")), hashOfAttributes(Map.of()));
        assertNotEquals(hashOfX(mapWithNull("y")), hashOfX(Map.of()));
    }

    @Test
    void integersOfEveryJavaTypeHashAlike() {
        String expected = hashOfX(42L);
        for (Object same : new Object[] {42, (short) 42, (byte) 42, BigInteger.valueOf(42)}) {
            assertEquals(expected, hashOfX(same), same.getClass().getName());
        }
        assertEquals(hashOfX(Long.MIN_VALUE), hashOfX(BigInteger.valueOf(Long.MIN_VALUE)));
        assertNotEquals(hashOfX(BigInteger.ONE.shiftLeft(64)), hashOfX(0L));
    }

    @Test
    void floatsAreComparedAtFourteenSignificantDigits() {
        assertEquals(hashOfX(1.0), hashOfX(1.0000000000000001));
        assertEquals(hashOfX(0.3), hashOfX(0.1 + 0.2));
        assertEquals(hashOfX(1.0), hashOfX(1.00000000000004)); // the 15th digit rounds away
        assertEquals(hashOfX(1.0000000000001), hashOfX(1.00000000000006));
        assertEquals(hashOfX(0.3), hashOfX(new BigDecimal("0.3")));
        assertEquals(hashOfX(2.0), hashOfX(2.0f));
        assertEquals(hashOfX(0.0), hashOfX(-0.0));
        assertNotEquals(hashOfX(1.0), hashOfX(1.0000000000001)); // the 14th digit counts
        assertNotEquals(hashOfX(1.0), hashOfX(1.00000000000006));
        assertNotEquals(hashOfX(1.0), hashOfX(-1.0));
        assertNotEquals(hashOfX(0.1), hashOfX(0.1f)); // 0.1f is 0.10000000149...
    }

    @Test
    void listsOfAnyKindHashAlike() {
        assertEquals(hashOfX(List.of(1, "a")), hashOfX(new LinkedList<>(List.of(1L, "a"))));
        assertEquals(hashOfX(List.of(1, "a")), hashOfX(new ArrayList<>(List.of(1L, "a"))));
    }

    @Test
    void everyIngredientChangesTheHash() {
        HashInput base = new HashInput(
                "process.calculation.calcfunction.CalcFunctionNode.",
                "m:add",
                Map.of("a", 1L, "b", List.of("x", 2.5)),
                ExampleNodes.folderFiles(),
                COMPUTER,
                Map.of("x", HASH_A, "y", HASH_B));
        String hash = NodeHasher.hash(base);
        Map<String, UnaryOperator<HashInput>> changes = new LinkedHashMap<>();
        changes.put(
                "node type",
                n -> new HashInput(
                        "process.calculation.calcjob.CalcJobNode.",
                        n.processType(),
                        n.attributes(),
                        n.files(),
                        n.computerUuid(),
                        n.inputs()));
        changes.put(
                "process type",
                n -> new HashInput(n.nodeType(), "m:sub", n.attributes(), n.files(), n.computerUuid(), n.inputs()));
        changes.put(
                "no process type",
                n -> new HashInput(n.nodeType(), null, n.attributes(), n.files(), n.computerUuid(), n.inputs()));
        changes.put("attribute value", n -> n.withAttributes(Map.of("a", 2L, "b", List.of("x", 2.5))));
        changes.put("nested attribute value", n -> n.withAttributes(Map.of("a", 1L, "b", List.of("x", 2.6))));
        changes.put("attribute name", n -> n.withAttributes(Map.of("A", 1L, "b", List.of("x", 2.5))));
        changes.put("extra attribute", n -> n.withAttributes(Map.of("a", 1L, "b", List.of("x", 2.5), "c", true)));
        changes.put("file key", n -> n.withFiles(replaceFile(ExampleNodes.OUTPUT_KEY)));
        changes.put(
                "file name",
                n -> n.withFiles(Map.of(
                        "o",
                        Map.of(
                                "aiida.IN", ExampleNodes.file(ExampleNodes.POTENTIAL_KEY),
                                "out",
                                        Map.of(
                                                "o",
                                                Map.of(
                                                        "aiida.out",
                                                        ExampleNodes.file(ExampleNodes.OUTPUT_KEY),
                                                        "empty",
                                                        Map.of())),
                                "pseudo",
                                        Map.of(
                                                "o",
                                                Map.of("Si.upf", ExampleNodes.file(ExampleNodes.POTENTIAL_KEY)))))));
        changes.put(
                "empty directory removed",
                n -> n.withFiles(Map.of(
                        "o",
                        Map.of(
                                "aiida.in", ExampleNodes.file(ExampleNodes.POTENTIAL_KEY),
                                "out", Map.of("o", Map.of("aiida.out", ExampleNodes.file(ExampleNodes.OUTPUT_KEY))),
                                "pseudo",
                                        Map.of(
                                                "o",
                                                Map.of("Si.upf", ExampleNodes.file(ExampleNodes.POTENTIAL_KEY)))))));
        changes.put("no files", n -> n.withFiles(Map.of()));
        changes.put(
                "computer",
                n -> new HashInput(
                        n.nodeType(),
                        n.processType(),
                        n.attributes(),
                        n.files(),
                        UUID.fromString("11111111-2222-3333-4444-555555555556"),
                        n.inputs()));
        changes.put(
                "no computer",
                n -> new HashInput(n.nodeType(), n.processType(), n.attributes(), n.files(), null, n.inputs()));
        changes.put("input label", n -> n.withInputs(Map.of("x", HASH_A, "z", HASH_B)));
        changes.put("input hash", n -> n.withInputs(Map.of("x", HASH_A, "y", HASH_A)));
        changes.put("labels swapped", n -> n.withInputs(Map.of("x", HASH_B, "y", HASH_A)));
        changes.put("input removed", n -> n.withInputs(Map.of("x", HASH_A)));
        Map<String, String> seen = new HashMap<>();
        seen.put(hash, "the base node");
        changes.forEach((what, change) -> {
            String changed = NodeHasher.hash(change.apply(base));
            String clash = seen.put(changed, what);
            assertEquals(null, clash, () -> "changing the " + what + " gives the same hash as " + clash);
        });
    }

    private static Map<String, Object> replaceFile(String key) {
        return Map.of(
                "o",
                Map.of(
                        "aiida.in", ExampleNodes.file(ExampleNodes.POTENTIAL_KEY),
                        "out", Map.of("o", Map.of("aiida.out", ExampleNodes.file(key), "empty", Map.of())),
                        "pseudo", Map.of("o", Map.of("Si.upf", ExampleNodes.file(key)))));
    }

    @Test
    void anEmptyDirectoryHashesTheSameInBothForms() {
        Map<String, Object> bare = Map.of("o", Map.of("d", Map.of()));
        Map<String, Object> explicit = Map.of("o", Map.of("d", Map.of("o", Map.of())));
        HashInput a = HashInput.ofData("data.core.folder.FolderData.", Map.of(), bare, null);
        HashInput b = HashInput.ofData("data.core.folder.FolderData.", Map.of(), explicit, null);
        assertEquals(NodeHasher.hash(a), NodeHasher.hash(b));
        assertEquals(NodeHasher.hash(a.withFiles(Map.of())), NodeHasher.hash(a.withFiles(Map.of("o", Map.of()))));
    }

    @Test
    void aFileAndADirectoryOfTheSameNameDiffer() {
        HashInput file = HashInput.ofData(
                "data.core.folder.FolderData.",
                Map.of(),
                Map.of("o", Map.of("d", ExampleNodes.file(ExampleNodes.OUTPUT_KEY))),
                null);
        HashInput directory = file.withFiles(Map.of(
                "o", Map.of("d", Map.of("o", Map.of("k", ExampleNodes.file(ExampleNodes.OUTPUT_KEY))))));
        assertNotEquals(NodeHasher.hash(file), NodeHasher.hash(directory));
    }

    @Test
    void hashIsTheDigestOfTheCanonicalBytesAndRepeatable() {
        HashInput node = ExampleNodes.structure(36);
        String first = NodeHasher.hash(node);
        assertEquals(first, NodeHasher.hash(node));
        assertEquals(first, NodeHasher.hash(ExampleNodes.structure(36)));
        byte[] canonical = NodeHasher.canonicalBytes(node);
        var digest = new Blake2bDigest(256);
        digest.update(canonical, 0, canonical.length);
        byte[] out = new byte[32];
        digest.doFinal(out, 0);
        assertEquals(HexFormat.of().formatHex(out), first);
        assertEquals(64, first.length());
    }
}
