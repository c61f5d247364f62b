package dev.cairn.storage.graph;

import java.util.Objects;

/** A string. */
public final class StrData extends Data {

    public static final String TYPE = "data.core.str.Str.";

    /** A string node holding {@code value}. */
    public StrData(String value) {
        super(TYPE);
        setAttribute("value", Objects.requireNonNull(value, "value"));
    }

    StrData(NodeRecord row) {
        super(row);
    }

    /** The stored string. */
    public String value() {
        return (String) attribute("value");
    }
}
