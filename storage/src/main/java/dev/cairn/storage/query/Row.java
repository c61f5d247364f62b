package dev.cairn.storage.query;

import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * One result row: the projected values in projection order, also found by vertex tag and
 * projection key ({@code row.get("s", "attributes.cell")}, {@code row.get("s", "count(id)")},
 * {@code row.get("s--c", "label")} for an edge). JSON values are maps, lists, {@code Long},
 * {@code Double}, {@code String}, {@code Boolean} or {@code null} (or, from {@link GraphQuery#withJsonAsText()},
 * {@link UndecodedJson} and {@link UndecodedString}, undecoded); {@code *} is a
 * {@link dev.cairn.storage.graph.NodeRecord} or an {@link EntityRow}.
 */
public final class Row {

    /** The names of a result's values, shared by its rows. */
    static final class Header {
        private final List<OutputField> outputs;
        private final Map<String, Integer> index = new HashMap<>();

        Header(List<OutputField> outputs) {
            this.outputs = outputs;
            for (int i = 0; i < outputs.size(); i++) {
                index.putIfAbsent(
                        outputs.get(i).tag() + '\u0000' + outputs.get(i).key(), i);
            }
        }

        List<OutputField> outputs() {
            return outputs;
        }

        int indexOf(String tag, String key) {
            Integer i = index.get(tag + '\u0000' + key);
            if (i == null) {
                throw new InvalidInputException("the query projects no '" + key + "' of '" + tag + "'; it projects "
                        + outputs.stream().map(o -> o.tag() + ":" + o.key()).toList());
            }
            return i;
        }
    }

    private final Header header;
    private final Object[] values;
    private final long bytes;

    Row(Header header, Object[] values, long bytes) {
        this.header = header;
        this.values = values;
        this.bytes = bytes;
    }

    /** About the bytes its cells took as read ({@link RowReader#bytes}): what rows read ahead are bounded by. */
    long bytes() {
        return bytes;
    }

    /** The value at this position of the projections. */
    public Object get(int index) {
        return values[index];
    }

    /** The value of projection {@code key} of vertex {@code tag}. */
    public Object get(String tag, String key) {
        return values[header.indexOf(tag, key)];
    }

    /** The same, checked against a type. */
    public <T> T get(String tag, String key, Class<T> type) {
        return type.cast(get(tag, key));
    }

    /** The number of values in the row. */
    public int size() {
        return values.length;
    }

    /** All values, in projection order. */
    public List<Object> values() {
        return Collections.unmodifiableList(Arrays.asList(values));
    }

    @Override
    public String toString() {
        return values().toString();
    }
}
