package dev.cairn.api.nodes;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.query.Filter;
import dev.cairn.storage.query.Keyset;
import dev.cairn.storage.query.Order;

/**
 * The order of a node list, {@code order=-ctime,label} (a {@code -} sorts descending). The last key
 * is always the creation order (the node's id, the order nodes were stored), so that the order is
 * total; {@code created} names it, and without another key before it it costs no sort at all, as
 * the default {@code -created} (newest first). Pages continue by keyset: the rows after the last
 * one's (values, id), a condition the database answers from an index however deep the page.
 * ({@code -ctime} is nearly the same order, but the nodes of one batch share a ctime, and breaking
 * such a tie by id sorts the whole batch.)
 *
 * @param keys          the column keys before the creation order
 * @param idDescending  whether the creation order, the last key, runs newest first
 * @param text          the order as the client wrote it (a cursor belongs to one order)
 */
record NodeOrder(List<Key> keys, boolean idDescending, String text) {

    /** One key: a column of the node, ascending or descending. */
    public record Key(String field, boolean descending) {}

    /** The creation order's name. */
    static final String CREATED = "created";

    /** The keys a list may be ordered by: columns never null, so a keyset comparison is always true or false. */
    static final List<String> FIELDS = List.of(CREATED, "ctime", "mtime", "label", "node_type");

    static final NodeOrder DEFAULT = parse("-" + CREATED);

    public static NodeOrder parse(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT;
        }
        List<Key> keys = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Boolean createdDescending = null;
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
            if (createdDescending != null) {
                throw new InvalidInputException("order '" + text + "': " + CREATED
                        + " is the last key (nodes are never created at once), nothing can follow it");
            }
            if (field.equals(CREATED)) {
                createdDescending = descending;
            } else {
                keys.add(new Key(field, descending));
            }
        }
        // without created, ties are broken by creation in the direction of the key before
        boolean idDescending =
                createdDescending != null ? createdDescending : keys.getLast().descending();
        return new NodeOrder(List.copyOf(keys), idDescending, text.strip());
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

    /** The rows after a row whose keys had {@code values} (the id last), as {@link Keyset} pages them. */
    Filter after(List<Object> values) {
        if (values.size() != keys.size() + 1) {
            throw new InvalidInputException("the cursor does not fit the order '" + text + "'");
        }
        return Keyset.after(orders("n"), values);
    }
}
