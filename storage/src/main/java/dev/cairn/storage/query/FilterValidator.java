package dev.cairn.storage.query;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/** Checks each condition of a filter: a known field, an operator its kind takes, a value of the right shape. */
final class FilterValidator {

    static final List<String> JSON_TYPES = List.of("object", "array", "string", "number", "boolean", "null");

    private FilterValidator() {}

    static void check(Filter filter, Table table, String entity, String where) {
        switch (filter) {
            case Filter.Condition c -> checkCondition(c, table, entity, where);
            case Filter.And and -> checkAll(and.filters(), "and", table, entity, where);
            case Filter.Or or -> checkAll(or.filters(), "or", table, entity, where);
            case Filter.Not not -> check(not.filter(), table, entity, where + " not");
        }
    }

    private static void checkAll(List<Filter> filters, String name, Table table, String entity, String where) {
        if (filters.isEmpty()) {
            throw new InvalidQueryException(where + ": '" + name + "' needs at least one filter");
        }
        for (int i = 0; i < filters.size(); i++) {
            if (filters.get(i) == null) {
                throw new InvalidQueryException(where + " " + name + "[" + i + "]: a filter is null");
            }
            check(filters.get(i), table, entity, where + " " + name + "[" + i + "]");
        }
    }

    private static void checkCondition(Filter.Condition c, Table table, String entity, String where) {
        String at = where + " on '" + c.field() + "'";
        FieldRef field = FieldRef.resolve(table, entity, c.field(), at);
        ColumnKind kind = field.kind();
        Operator op = c.operator();
        if (!kind.operators().contains(op)) {
            throw new InvalidQueryException(at + ": operator '" + op.symbol() + "' does not apply to "
                    + kind.name().toLowerCase() + " column " + field.column().name() + "; its operators are "
                    + kind.operators().stream().map(Operator::symbol).toList());
        }
        at = at + " '" + (c.negated() ? "!" : "") + op.symbol() + "'";
        Object value = c.value();
        switch (op) {
            case EQ -> checkScalar(value, kind, at, true);
            case GT, LT, GE, LE -> {
                if (kind == ColumnKind.JSON
                        && !(value instanceof Long || value instanceof Double || value instanceof String)) {
                    throw shape(at, "a number or a string", value);
                }
                if (kind != ColumnKind.JSON) {
                    checkScalar(value, kind, at, false);
                }
            }
            case IN -> {
                if (!(value instanceof List<?> list) || list.isEmpty()) {
                    throw shape(at, "a non-empty list", value);
                }
                for (Object element : list) {
                    checkScalar(element, kind, at + " element", kind == ColumnKind.JSON);
                }
            }
            case LIKE, ILIKE, HAS_KEY -> {
                if (!(value instanceof String)) {
                    throw shape(at, "a string", value);
                }
            }
            case CONTAINS -> {
                if (!(value instanceof List<?>) && !(value instanceof Map<?, ?>)) {
                    throw shape(at, "a JSON array or object", value);
                }
            }
            case OF_LENGTH, LONGER, SHORTER -> {
                if (!(value instanceof Long n) || n < 0) {
                    throw shape(at, "a length (an integer, 0 or more)", value);
                }
            }
            case OF_TYPE -> {
                if (!(value instanceof String s) || !JSON_TYPES.contains(s)) {
                    throw shape(at, "a JSON type, one of " + JSON_TYPES, value);
                }
            }
        }
        if (table == Table.LINK && field.column().name().equals("type")) {
            checkLinkTypes(op, value, at);
        }
    }

    private static void checkScalar(Object value, ColumnKind kind, String at, boolean nullAllowed) {
        if (value == null) {
            if (!nullAllowed) {
                throw shape(at, "a value, not null", null);
            }
            return;
        }
        switch (kind) {
            case LONG -> {
                if (!(value instanceof Long)) {
                    throw shape(at, "an integer", value);
                }
            }
            case TEXT -> {
                if (!(value instanceof String)) {
                    throw shape(at, "a string", value);
                }
            }
            case UUID -> {
                if (!(value instanceof String s) || !isUuid(s)) {
                    throw shape(at, "a UUID such as 0f8fad5b-d9cb-469f-a165-70867728950e", value);
                }
            }
            case TIMESTAMP -> {
                if (!(value instanceof String s) || !isTimestamp(s)) {
                    throw shape(at, "an ISO-8601 date-time with offset such as 2024-05-01T12:00:00Z", value);
                }
            }
            case JSON -> {
                // any JSON value compares as JSON
            }
        }
    }

    private static void checkLinkTypes(Operator op, Object value, String at) {
        List<?> values = value instanceof List<?> list ? list : List.of(String.valueOf(value));
        Set<String> valid = Set.copyOf(SpecValidator.linkTypeNames());
        if (op == Operator.EQ || op == Operator.IN) {
            for (Object v : values) {
                if (!valid.contains(v)) {
                    throw new InvalidQueryException(
                            at + ": unknown link type '" + v + "'; link types are " + SpecValidator.linkTypeNames());
                }
            }
        }
    }

    static boolean isUuid(String s) {
        try {
            return UUID.fromString(s).toString().equalsIgnoreCase(s);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    static boolean isTimestamp(String s) {
        try {
            OffsetDateTime.parse(s);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static InvalidQueryException shape(String at, String expected, Object value) {
        String shown = value == null ? "null" : value instanceof String s ? "'" + s + "'" : String.valueOf(value);
        String type = value == null ? "" : " (" + FilterValues.typeOf(value) + ")";
        return new InvalidQueryException(at + ": needs " + expected + ", got " + shown + type);
    }
}
