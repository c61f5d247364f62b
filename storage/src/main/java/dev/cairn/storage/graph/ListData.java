package dev.cairn.storage.graph;

import java.util.List;

/** A list, in the attribute {@code list}. */
public final class ListData extends Data {

    public static final String TYPE = "data.core.list.List.";

    /** A list node holding {@code values} (cleaned as attributes are). */
    public ListData(List<?> values) {
        super(TYPE);
        setAttribute("list", values);
    }

    ListData(NodeRecord row) {
        super(row);
    }

    /** The list, read-only. */
    @SuppressWarnings("unchecked")
    public List<Object> values() {
        return (List<Object>) attribute("list");
    }
}
