package dev.cairn.storage.query;

import java.util.ArrayList;
import java.util.List;

/**
 * Keyset paging over any order of one vertex: the condition that keeps the rows after a given row, so
 * that a page after a deep cursor costs what the first page does. The order must be total (its last key
 * unique, such as {@code id}) and on fields that are never null.
 * {@snippet :
 * List<Order> order = List.of(Order.desc("p", "ctime"), Order.desc("p", "id"));
 * Filter next = Keyset.after(order, List.of("2026-05-01T12:00:00Z", 4242L));
 * }
 * The condition is a strictly later first key, or an equal one and a later second, ..., and with more
 * than one key the first is also bounded on its own, which lets the database start its index scan at
 * the row given. The single-key case of {@code id} is {@link QueryBuilder#after(long)}, which the JSON
 * form has too.
 */
public final class Keyset {

    private Keyset() {}

    /**
     * The rows after the row whose keys were {@code values}, in {@code order}: a filter on the vertex the
     * order sorts.
     *
     * @param values one per key, as a filter takes them (times as ISO-8601 text)
     * @throws InvalidQueryException when the keys are on several vertices, cast, or not as many as the values
     */
    public static Filter after(List<Order> order, List<?> values) {
        if (order.isEmpty() || order.size() != values.size()) {
            throw new InvalidQueryException("keyset paging needs one value per order key: " + order.size() + " keys, "
                    + values.size() + " values");
        }
        for (Order key : order) {
            if (!key.tag().equals(order.getFirst().tag()) || key.cast() != null) {
                throw new InvalidQueryException(
                        "keyset paging orders one vertex by its fields, uncast; got " + key.tag() + "." + key.field());
            }
        }
        List<Filter> any = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            List<Filter> all = new ArrayList<>();
            for (int j = 0; j < i; j++) {
                all.add(Filter.field(order.get(j).field()).eq(values.get(j)));
            }
            all.add(beyond(order.get(i), values.get(i), false));
            any.add(Filter.and(all.toArray(Filter[]::new)));
        }
        Filter later = any.size() == 1 ? any.getFirst() : Filter.or(any.toArray(Filter[]::new));
        if (order.size() == 1) {
            return later;
        }
        return Filter.and(beyond(order.getFirst(), values.getFirst(), true), later);
    }

    /** Past {@code value} in the key's direction: strictly, or with {@code orEqual} not before it. */
    private static Filter beyond(Order key, Object value, boolean orEqual) {
        Filter.On on = Filter.field(key.field());
        if (key.descending()) {
            return orEqual ? on.le(value) : on.lt(value);
        }
        return orEqual ? on.ge(value) : on.gt(value);
    }
}
