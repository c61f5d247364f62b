package dev.cairn.storage.graph;

import java.util.Map;

import dev.cairn.storage.db.JsonCodec;

/**
 * JSON objects as Cairn hands them out: integers as {@code Long}, whatever mapper read them.
 * Hibernate's JSON mapping reads small integers as {@code Integer}, so a value would not equal
 * what was stored; passing it through {@link JsonCodec} gives the one representation.
 */
final class JsonMaps {

    private JsonMaps() {
    }

    static Map<String, Object> plain(Map<String, Object> map) {
        return map == null ? Map.of() : JsonCodec.readObject(JsonCodec.write(map));
    }
}
