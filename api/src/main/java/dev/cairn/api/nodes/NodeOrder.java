package dev.cairn.api.nodes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.cairn.errors.InvalidInputException;
import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.Order;

/**
 * The order of a node list, {@code order=-ctime,label} (a {@code -} sorts descending), with the
 * node's id as the last key so that the order is total, in the direction of the key before it.
 * Pages continue by keyset: the rows after the last one's (values, id), a condition the database
 * answers from an index however deep the page.
 *
 * @param text the order as the client wrote it (a cursor belongs to one order)
 */
record NodeOrder(List<Key> keys, String text) {

    /** One key: a column of the node, ascending or descending. */
    record Key(String field, boolean descending) {}

    /** The columns a list may be ordered by: never null, so a keyset comparison is always true or false. */
    static final List<String> FIELDS = List.of("ctime", "mtime", "label", "node_type");

    static final NodeOrder DEFAULT = parse("-ctime");

    static NodeOrder parse(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT;
        }
        List<Key> keys = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String raw : text.split(",")) {
            String key = raw.strip();
            boolean descending = key.startsWith("-");
            String field = descending || key.startsWith("+") ? key.substring(1) : key;
            if (!FIELDS.contains(field)) {
                throw new InvalidInputException("order '" + text + "': unknown sort field '" + field
                        + "'; a list sorts by " + FIELDS + ", each descending with a leading '-'");
            }
            if (!seen.add(field)) {
                throw new InvalidInputException("order '" + text + "' names " + field + " twice");
            }
            keys.add(new Key(field, descending));
        }
        return new NodeOrder(List.copyOf(keys), text.strip());
    }

    /** Whether the id, the last key, sorts descending: as the key before it does. */
    boolean idDescending() {
        return !keys.isEmpty() && keys.getLast().descending();
    }

    /** The query's order keys on vertex {@code tag}, the id last. */
    List<Order> orders(String tag) {
        List<Order> orders = new ArrayList<>();
        for (Key k : keys) {
            orders.add(k.descending() ? Order.desc(tag, k.field()) : Order.asc(tag, k.field()));
        }
        orders.add(idDescending() ? Order.desc(tag, "id") : Order.asc(tag, "id"));
        return orders;
    }

    /**
     * The rows after a row whose keys had {@code values} (the id last): a strictly later first key,
     * or an equal one and a later second, ..., or all equal and a later id. The first key is also
     * bounded on its own, which lets the database start its index scan at the cursor.
     */
    Filter after(List<Object> values) {
        if (values.size() != keys.size() + 1) {
            throw new InvalidInputException("the cursor does not fit the order '" + text + "'");
        }
        List<Filter> any = new ArrayList<>();
        for (int i = 0; i <= keys.size(); i++) {
            List<Filter> all = new ArrayList<>();
            for (int j = 0; j < i; j++) {
                all.add(Filter.field(keys.get(j).field()).eq(values.get(j)));
            }
            boolean descending = i < keys.size() ? keys.get(i).descending() : idDescending();
            String field = i < keys.size() ? keys.get(i).field() : "id";
            Filter.On on = Filter.field(field);
            all.add(descending ? on.lt(values.get(i)) : on.gt(values.get(i)));
            any.add(all.size() == 1 ? all.getFirst() : Filter.and(all.toArray(Filter[]::new)));
        }
        Filter later = any.size() == 1 ? any.getFirst() : Filter.or(any.toArray(Filter[]::new));
        if (keys.isEmpty()) {
            return later;
        }
        Key first = keys.getFirst();
        Filter.On on = Filter.field(first.field());
        return Filter.and(first.descending() ? on.le(values.getFirst()) : on.ge(values.getFirst()), later);
    }
}
