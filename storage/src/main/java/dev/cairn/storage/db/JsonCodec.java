package dev.cairn.storage.db;

import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * JSON text to and from the plain Java values that attributes hold: {@code null},
 * {@link Boolean}, {@link Long}, {@link Double}, {@link String}, {@link java.util.List}
 * and {@link Map} with string keys. Integers always read as {@code Long}, so a value reads
 * back as the type it was written with.
 */
public final class JsonCodec {

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_LONG_FOR_INTS)
            .build();

    private JsonCodec() {}

    /** The mapper itself, for Hibernate's JSON columns: entities read integers as Long too. */
    static JsonMapper mapper() {
        return MAPPER;
    }

    /**
     * {@code value} as JSON text.
     *
     * @throws InvalidInputException if it cannot be written as JSON
     */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JacksonException e) {
            throw new InvalidInputException("cannot write as JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The value of JSON text {@code json}: maps, lists, strings, numbers, booleans or null.
     *
     * @throws InvalidInputException if it is not valid JSON
     */
    public static Object read(String json) {
        try {
            return MAPPER.readValue(json, Object.class);
        } catch (JacksonException e) {
            throw new InvalidInputException("not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Reads one JSON value from UTF-8 bytes, failing on anything after it (a line of newline-delimited
     * JSON holds one value).
     */
    public static Object read(byte[] utf8, int offset, int length) {
        try {
            return MAPPER.readerFor(Object.class)
                    .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                    .readValue(utf8, offset, length);
        } catch (JacksonException e) {
            throw new InvalidInputException("not valid JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Reads a JSON object; {@code null} reads as an empty map. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> readObject(String json) {
        if (json == null) {
            return Map.of();
        }
        Object value = read(json);
        if (!(value instanceof Map<?, ?> map)) {
            throw new InvalidInputException("not a JSON object: " + abbreviate(json));
        }
        return (Map<String, Object>) map;
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
