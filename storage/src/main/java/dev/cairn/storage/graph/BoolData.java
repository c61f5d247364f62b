package dev.cairn.storage.graph;

/** A boolean. */
public final class BoolData extends Data {

    public static final String TYPE = "data.core.bool.Bool.";

    /** A boolean data node holding {@code value}. */
    public BoolData(boolean value) {
        super(TYPE);
        setAttribute("value", value);
    }

    BoolData(NodeRecord row) {
        super(row);
    }

    /** The stored boolean. */
    public boolean value() {
        return (Boolean) attribute("value");
    }
}
