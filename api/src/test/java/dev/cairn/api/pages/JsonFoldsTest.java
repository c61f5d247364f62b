package dev.cairn.api.pages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.cairn.storage.errors.InvalidInputException;

class JsonFoldsTest {

    private static Map<String, Object> document() {
        List<Object> items = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            items.add((long) i);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("a/b~c", Map.of("inner", List.of()));
        doc.put("items", items);
        doc.put("emoji", "a" + "🧪".repeat(150));
        return doc;
    }

    @Test
    void aKeyWithSlashesAndTildesIsReachedByItsEscapedPointer() {
        JsonFolds.JsonLevel top = JsonFolds.level("attributes", document(), "", 0);
        JsonFolds.JsonRow row = top.rows().getFirst();
        assertEquals("a/b~c", row.key());
        assertEquals("/a~1b~0c", row.pointer());
        assertEquals("{1 key}", row.size());
        JsonFolds.JsonRow inner = JsonFolds.level("attributes", document(), row.pointer(), 0)
                .rows()
                .getFirst();
        assertEquals("[]", inner.text(), "an empty list is a value, not a fold");
        assertNull(inner.pointer());
    }

    @Test
    void aLongListComesAHundredRowsAtATime() {
        JsonFolds.JsonLevel first = JsonFolds.level("attributes", document(), "/items", 0);
        assertEquals(100, first.rows().size());
        assertEquals(150, first.remaining());
        assertEquals("Show 100 more of 150", first.more());
        JsonFolds.JsonLevel last = JsonFolds.level("attributes", document(), "/items", 200);
        assertEquals(
                List.of("200", "249"),
                List.of(last.rows().getFirst().key(), last.rows().getLast().key()));
        assertEquals(0, last.remaining());
    }

    @Test
    void aLongStringIsCutBetweenCharacters() {
        JsonFolds.JsonRow emoji =
                JsonFolds.level("attributes", document(), "", 0).rows().get(2);
        // 200 chars would end in half of the 100th test tube: 99 of them, then the cut
        assertEquals("\"a" + "🧪".repeat(99) + "\"…", emoji.text());
        assertEquals("151 characters", emoji.size());
    }

    @Test
    void aStringIsShownAsJsonWritesItQuotesAndNewLinesEscaped() {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("says", "\"ok\"\\ done\n\tnext\u0001 é");
        doc.put("log", "line \"10\"\n".repeat(30));
        List<JsonFolds.JsonRow> rows = JsonFolds.level("attributes", doc, "", 0).rows();
        assertEquals("\"\\\"ok\\\"\\\\ done\\n\\tnext\\u0001 é\"", rows.get(0).text());
        assertEquals(
                "\"" + "line \\\"10\\\"\\n".repeat(20) + "\"…",
                rows.get(1).text(),
                "a long string is cut before it is escaped: the cut never splits an escape");
    }

    @Test
    void whatIsNotThereIsRefusedNamingIt() {
        assertEquals(
                "the extras have nothing at '/items/250'",
                assertThrows(InvalidInputException.class, () -> JsonFolds.level("extras", document(), "/items/250", 0))
                        .getMessage());
        assertEquals(
                "the attributes have nothing at '/nope'",
                assertThrows(InvalidInputException.class, () -> JsonFolds.level("attributes", document(), "/nope/x", 0))
                        .getMessage());
        assertEquals(
                "'from' is -1: give the index of the first row, 0 or more",
                assertThrows(InvalidInputException.class, () -> JsonFolds.level("attributes", document(), "", -1))
                        .getMessage());
    }
}
