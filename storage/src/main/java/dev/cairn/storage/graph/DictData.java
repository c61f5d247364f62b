package dev.cairn.storage.graph;

import java.util.Map;

/** A dictionary: its top-level keys are the node's attributes, so queries reach them directly. */
public final class DictData extends Data {

    public static final String TYPE = "data.core.dict.Dict.";

    /**
     * A dictionary node holding {@code values} (cleaned as attributes are).
     *
     * @throws InvalidValueException if a key or a value cannot be stored
     */
    public DictData(Map<String, ?> values) {
        super(TYPE);
        values.forEach(this::setAttribute);
    }

    DictData(NodeRecord row) {
        super(row);
    }

    /** The value under {@code key}, or null when there is none. */
    public Object get(String key) {
        return attribute(key);
    }

    /** The whole dictionary, read-only. */
    public Map<String, Object> asMap() {
        return attributes();
    }
}
