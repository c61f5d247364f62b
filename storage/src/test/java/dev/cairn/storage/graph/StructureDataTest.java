package dev.cairn.storage.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.hash.HashInput;
import dev.cairn.storage.hash.NodeHasher;

/** The attribute form of a structure ({@link StructureData#of}) is held to the typed constructor's rules. */
class StructureDataTest {

    private static final StructureData TYPED = new StructureData(
            new double[][] {{4, 0, 0}, {0, 4, 0}, {0, 0, 4}},
            new boolean[] {true, true, false},
            List.of(new StructureData.Kind("Ba", List.of("Ba"), List.of(1.0), 137.3), StructureData.Kind.of("O", 16)),
            List.of(new StructureData.Site("Ba", 0, 0, 0), new StructureData.Site("O", 2, 2, 2)));

    private static Map<String, Object> attributes() {
        return new LinkedHashMap<>(TYPED.attributes());
    }

    @Test
    void theAttributesOfATypedStructureMakeTheSameStructure() {
        StructureData again = StructureData.of(TYPED.attributes());
        assertEquals(TYPED.attributes(), again.attributes());
        assertEquals(TYPED.kinds(), again.kinds());
        assertEquals(TYPED.sites(), again.sites());
    }

    /** The attribute form taken as it is (all its numbers floats) hashes as the typed structure does. */
    @Test
    void theAttributesOfATypedStructureHashAsIt() {
        HashInput typed = new NodeHashing(null).input(TYPED, Map.of());
        HashInput again = new NodeHashing(null).input(StructureData.of(attributes()), Map.of());
        assertEquals(NodeHasher.hash(typed), NodeHasher.hash(again));
    }

    @Test
    void integersInTheAttributesAreStoredAsFloatsAsTheTypedConstructorStoresThem() {
        Map<String, Object> a = attributes();
        a.put("cell", List.of(List.of(4, 0, 0), List.of(0, 4, 0), List.of(0, 0, 4)));
        a.put(
                "sites",
                List.of(
                        Map.of("kind_name", "Ba", "position", List.of(0, 0, 0)),
                        Map.of("kind_name", "O", "position", List.of(2, 2, 2))));
        assertEquals(TYPED.attributes(), StructureData.of(a).attributes());
    }

    @Test
    void aKindWithMoreWeightsThanSymbolsIsRefusedNamingIt() {
        Map<String, Object> a = attributes();
        a.put(
                "kinds",
                List.of(Map.of("name", "Ba", "symbols", List.of("Ba"), "weights", List.of(0.5, 0.5), "mass", 1)));
        a.put("sites", List.of());
        var e = assertThrows(InvalidInputException.class, () -> StructureData.of(a));
        assertTrue(e.getMessage().startsWith("kinds[0]: weights"), e.getMessage());
    }

    @Test
    void symbolsThatAreNotStringsAreRefused() {
        Map<String, Object> a = attributes();
        a.put("kinds", List.of(Map.of("name", "Ba", "symbols", List.of(56), "weights", List.of(1.0), "mass", 1)));
        a.put("sites", List.of());
        var e = assertThrows(InvalidInputException.class, () -> StructureData.of(a));
        assertTrue(e.getMessage().startsWith("kinds[0]: symbols"), e.getMessage());
    }

    @Test
    void aKindOrSiteWithAnUnknownKeyIsRefused() {
        Map<String, Object> a = attributes();
        a.put("sites", List.of(Map.of("kind_name", "Ba", "position", List.of(0, 0, 0), "spin", 1)));
        var e = assertThrows(InvalidInputException.class, () -> StructureData.of(a));
        assertTrue(e.getMessage().startsWith("sites[0]: an object of exactly [kind_name, position]"), e.getMessage());
    }

    @Test
    void aPositionOfStringsIsRefused() {
        Map<String, Object> a = attributes();
        a.put("sites", List.of(Map.of("kind_name", "Ba", "position", List.of("0", "0", "0"))));
        var e = assertThrows(InvalidInputException.class, () -> StructureData.of(a));
        assertTrue(e.getMessage().startsWith("sites[0]: position"), e.getMessage());
    }

    @Test
    void kindsThatAreNotAListAreRefusedNotCast() {
        Map<String, Object> a = attributes();
        a.put("kinds", "Ba");
        var e = assertThrows(InvalidInputException.class, () -> StructureData.of(a));
        assertTrue(e.getMessage().startsWith("kinds: a list"), e.getMessage());
    }

    @Test
    void aSiteOfAnUnknownKindIsRefused() {
        Map<String, Object> a = attributes();
        a.put("sites", List.of(Map.of("kind_name", "Ti", "position", List.of(0, 0, 0))));
        var e = assertThrows(InvalidInputException.class, () -> StructureData.of(a));
        assertTrue(e.getMessage().contains("kind_name Ti is not among the kinds"), e.getMessage());
    }
}
