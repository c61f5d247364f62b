package dev.cairn.api.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

/** A JSON string's text unescaped gives the UTF-8 of the string Jackson reads from it. */
class JsonStringsTest {

    @Test
    void unescapingGivesTheCharactersJacksonReads() {
        List<String> texts = List.of(
                "\"\"",
                "\"plain ascii\"",
                "\"quote \\\" backslash \\\\ slash \\/ new\\nline tab\\t \\b \\f \\r\"",
                "\"control \\u0001 \\u001f and \\u00e9 \\u2028 written as escapes\"",
                "\"raw é 日本語 🙂 \u2028\"",
                "\"an escaped pair \\ud83d\\ude42\"",
                "\"\\\\u0041 is not an escape\"",
                "\"ends with an escape\\n\"");
        for (String text : texts) {
            byte[] json = text.getBytes(StandardCharsets.UTF_8);
            assertTrue(JsonStrings.isString(json), text);
            String read = RowJson.MAPPER.readValue(json, String.class);
            assertArrayEquals(read.getBytes(StandardCharsets.UTF_8), JsonStrings.unescape(json), text);
        }
        assertFalse(JsonStrings.isString("null".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(JsonStrings.isString("12".getBytes(StandardCharsets.US_ASCII)));
    }
}
