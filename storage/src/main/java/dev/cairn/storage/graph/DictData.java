package dev.cairn.storage.graph;

import java.util.Map;

/** A dictionary: its top-level keys are the node's attributes, so queries reach them directly. */
public final class DictData extends Data {

    public static final String TYPE = "data.core.dict.Dict.";

    public DictData(Map<String, ?> values) {
        super(TYPE);
        values.forEach(this::setAttribute);
    }

    DictData(NodeRecord row) {
        super(row);
    }

    public Object get(String key) {
        return attribute(key);
    }

    /** The whole dictionary, read-only. */
    public Map<String, Object> asMap() {
        return attributes();
    }
}
