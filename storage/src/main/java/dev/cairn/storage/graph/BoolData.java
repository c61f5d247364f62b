package dev.cairn.storage.graph;

/** A boolean. */
public final class BoolData extends Data {

    public static final String TYPE = "data.core.bool.Bool.";

    public BoolData(boolean value) {
        super(TYPE);
        setAttribute("value", value);
    }

    BoolData(NodeRecord row) {
        super(row);
    }

    public boolean value() {
        return (Boolean) attribute("value");
    }
}
