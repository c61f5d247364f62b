package dev.cairn.storage.graph;

/** An integer. */
public final class IntData extends Data {

    public static final String TYPE = "data.core.int.Int.";

    public IntData(long value) {
        super(TYPE);
        setAttribute("value", value);
    }

    IntData(NodeRecord row) {
        super(row);
    }

    public long value() {
        return ((Number) attribute("value")).longValue();
    }
}
