package dev.cairn.storage.query;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A condition on the rows of one vertex (or its edge): a comparison of a field with a value,
 * or {@code and}/{@code or}/{@code not} of other filters.
 * <p>
 * Conditions follow two-valued logic: a comparison on a JSON path that is absent, or holds a
 * value of another JSON type, is false, and its negation is true. A numeric comparison never
 * matches a string or a boolean. {@code ==} on JSON compares JSON values ({@code 1 == 1.0}).
 * {@snippet :
 * Filter.and(Filter.field("attributes.sites").longer(32), Filter.field("label").not().like("tmp%"))
 * }
 */
public sealed interface Filter permits Filter.Condition, Filter.And, Filter.Or, Filter.Not {

    /** {@code field op value}, or its negation. The value is a JSON-like Java value. */
    record Condition(String field, Operator operator, boolean negated, Object value) implements Filter {
        public Condition {
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(operator, "operator");
            value = FilterValues.normalize(value);
        }
    }

    /** All of the filters hold. */
    record And(List<Filter> filters) implements Filter {
        public And {
            filters = List.copyOf(filters);
        }
    }

    /** At least one of the filters holds. */
    record Or(List<Filter> filters) implements Filter {
        public Or {
            filters = List.copyOf(filters);
        }
    }

    /** The filter does not hold. */
    record Not(Filter filter) implements Filter {
        public Not {
            Objects.requireNonNull(filter, "filter");
        }
    }

    /** All of {@code filters} hold (one filter is itself). */
    static Filter and(Filter... filters) {
        return filters.length == 1 ? filters[0] : new And(Arrays.asList(filters));
    }

    /** At least one of {@code filters} holds. */
    static Filter or(Filter... filters) {
        return new Or(Arrays.asList(filters));
    }

    /** {@code filter} does not hold. */
    static Filter not(Filter filter) {
        return new Not(filter);
    }

    /** Starts a condition on a column ({@code label}) or a JSON path ({@code attributes.cell.0.0}). */
    static On field(String field) {
        return new On(field, false);
    }

    /** The operators of one field; {@link #not()} negates the next one. */
    record On(String field, boolean negated) {

        /** Negates the operator that follows: {@code field("label").not().like("a%")}. */
        public On not() {
            return new On(field, !negated);
        }

        /** The value equals {@code value}. */
        public Filter eq(Object value) {
            return op(Operator.EQ, value);
        }

        /** The value differs from {@code value}. */
        public Filter ne(Object value) {
            return new Condition(field, Operator.EQ, !negated, value);
        }

        /** The value is greater than {@code value}. */
        public Filter gt(Object value) {
            return op(Operator.GT, value);
        }

        /** The value is less than {@code value}. */
        public Filter lt(Object value) {
            return op(Operator.LT, value);
        }

        /** The value is greater than or equal to {@code value}. */
        public Filter ge(Object value) {
            return op(Operator.GE, value);
        }

        /** The value is less than or equal to {@code value}. */
        public Filter le(Object value) {
            return op(Operator.LE, value);
        }

        /** The value is one of {@code values}. */
        public Filter in(Object... values) {
            return op(Operator.IN, Arrays.asList(values));
        }

        /** The value is one of {@code values}. */
        public Filter in(List<?> values) {
            return op(Operator.IN, values);
        }

        /** The text matches the SQL pattern {@code pattern} ({@code %} any text, {@code _} one character). */
        public Filter like(String pattern) {
            return op(Operator.LIKE, pattern);
        }

        /** As {@link #like}, ignoring case. */
        public Filter ilike(String pattern) {
            return op(Operator.ILIKE, pattern);
        }

        /** The JSON object has the key {@code key}. */
        public Filter hasKey(String key) {
            return op(Operator.HAS_KEY, key);
        }

        /** A JSON array or object contains the given one ({@code @>}). */
        public Filter contains(Object value) {
            return op(Operator.CONTAINS, value);
        }

        /** The JSON array has {@code length} elements. */
        public Filter ofLength(int length) {
            return op(Operator.OF_LENGTH, length);
        }

        /** The JSON array has more than {@code length} elements. */
        public Filter longer(int length) {
            return op(Operator.LONGER, length);
        }

        /** The JSON array has fewer than {@code length} elements. */
        public Filter shorter(int length) {
            return op(Operator.SHORTER, length);
        }

        /** The JSON type: object, array, string, number, boolean or null. */
        public Filter ofType(String jsonType) {
            return op(Operator.OF_TYPE, jsonType);
        }

        /** The condition {@code operator} with {@code value}, negated when this field was {@code not()}. */
        public Filter op(Operator operator, Object value) {
            return new Condition(field, operator, negated, value);
        }
    }
}
