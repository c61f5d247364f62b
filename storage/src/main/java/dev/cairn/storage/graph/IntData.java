package dev.cairn.storage.graph;

/** An integer. */
public final class IntData extends Data {

    public static final String TYPE = "data.core.int.Int.";

    /** An integer data node holding {@code value}. */
    public IntData(long value) {
        super(TYPE);
        setAttribute("value", value);
    }

    IntData(NodeRecord row) {
        super(row);
    }

    /** The stored integer. */
    public long value() {
        return ((Number) attribute("value")).longValue();
    }
}
