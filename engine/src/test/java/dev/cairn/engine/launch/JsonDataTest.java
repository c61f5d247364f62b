package dev.cairn.engine.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.Data;
import dev.cairn.storage.graph.DictData;
import dev.cairn.storage.graph.FloatData;
import dev.cairn.storage.graph.IntData;
import dev.cairn.storage.graph.ListData;
import dev.cairn.storage.graph.SinglefileData;
import dev.cairn.storage.graph.StructureData;

/** Data nodes from JSON alone: the inline forms of a launch, and refusals that name what the class takes. */
class JsonDataTest {

    static final JsonMapper JSON = JsonMapper.builder().build();

    static JsonNode json(String text) {
        return JSON.readTree(text);
    }

    @Test
    void valuesTakeTheFormsALaunchTakesInline() {
        assertEquals(3, JsonData.decode(IntData.class, json("3")).value());
        assertEquals(3, JsonData.decode(IntData.class, json("{\"value\": 3}")).value());
        assertEquals(2.5, JsonData.decode(FloatData.class, json("2.5")).value());
        assertEquals(
                Map.of("a", 1L),
                JsonData.decode(DictData.class, json("{\"a\": 1}")).asMap());
        assertEquals(
                List.of(1L, "x"),
                JsonData.decode(ListData.class, json("[1, \"x\"]")).values());
        StructureData structure = JsonData.decode(StructureData.class, json(Structures.CUBIC_JSON));
        assertFalse(structure.isStored());
        assertEquals(Structures.cubic().attributes(), structure.attributes());
        assertInstanceOf(FloatData.class, JsonData.decode(Data.class, json("1.5")));
    }

    @Test
    void aWrongValueIsRefusedNamingWhatTheClassTakes() {
        InvalidInputException wrongType =
                assertThrows(InvalidInputException.class, () -> JsonData.decode(IntData.class, json("\"three\"")));
        assertEquals(
                "the value takes an integer, {\"value\": integer} (IntData), got a string", wrongType.getMessage());
        InvalidInputException badKey =
                assertThrows(InvalidInputException.class, () -> JsonData.decode(DictData.class, json("{\"a.b\": 1}")));
        assertTrue(badKey.getMessage().startsWith("the value: "), badKey.getMessage());
        InvalidInputException files =
                assertThrows(InvalidInputException.class, () -> JsonData.decode(SinglefileData.class, json("\"x\"")));
        assertEquals("the value: a SinglefileData has no JSON form", files.getMessage());
    }
}
