package dev.cairn.storage.graph;

/** A floating-point number, kept to 14 significant digits. */
public final class FloatData extends Data {

    public static final String TYPE = "data.core.float.Float.";

    /** A float data node holding {@code value}. */
    public FloatData(double value) {
        super(TYPE);
        setAttribute("value", value);
    }

    FloatData(NodeRecord row) {
        super(row);
    }

    /** The stored number. */
    public double value() {
        return ((Number) attribute("value")).doubleValue();
    }
}
