package dev.cairn.api.web;

import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * JSON the server reads by hand (bodies it checks field by field, filter values, its own cursors) as the
 * plain values attributes hold: maps, lists, strings, booleans, {@code Long} for every integer,
 * {@code Double} for other numbers. Text that is not what was wanted is the client's fault, refused with
 * what the parser found.
 */
public final class Json {

    /** Reads integers as {@code Long}, as stored attributes read back. */
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_LONG_FOR_INTS)
            .build();

    private Json() {}

    /** The JSON text of a plain value (maps, lists, strings, numbers, booleans, null). */
    public static String write(Object value) {
        return MAPPER.writeValueAsString(value);
    }

    /** One JSON value, refused with the parser's complaint when it is not JSON. */
    public static Object read(String text) {
        try {
            return MAPPER.readValue(text, Object.class);
        } catch (JacksonException notJson) {
            throw new InvalidInputException("not valid JSON: " + notJson.getOriginalMessage(), notJson);
        }
    }

    /** A JSON object; any other JSON value is refused, quoting (the start of) the text. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> readObject(String text) {
        Object value = read(text);
        if (value instanceof Map<?, ?> object) {
            return (Map<String, Object>) object;
        }
        String quoted = text.length() <= 80 ? text : text.substring(0, 77) + "...";
        throw new InvalidInputException("not a JSON object: " + quoted);
    }
}
