package dev.cairn.storage.query;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import dev.cairn.storage.db.JsonCodec;

/**
 * SQL for fields and conditions. JSON paths read through {@code ->} with a bound key (one
 * element) or {@code #>} with a bound {@code text[]} (more), the same expressions the
 * expression indexes of {@code V2__query_indexes.sql} are built on, so that the planner
 * matches them once the parameters are known.
 */
final class Expressions {

    private Expressions() {}

    /** The value of a field of the row under {@code alias}: a column, a derived field, or {@code jsonb} at a path. */
    static SqlText value(String alias, FieldRef field) {
        if (field.column().isDerived()) {
            return new SqlText()
                    .sql("(")
                    .sql(field.column().derivation().replace("{t}", alias))
                    .sql(")");
        }
        SqlText sql = new SqlText().sql(alias).sql(".").sql(field.column().name());
        if (field.path().size() == 1) {
            sql.sql(" -> ").bind(field.path().getFirst());
        } else if (field.path().size() > 1) {
            sql.sql(" #> ").bind(new CompiledQuery.ArrayParameter("text", new ArrayList<>(field.path())));
        }
        return sql;
    }

    /** What starts the tagged text of a string ({@link #taggedText}): the JSON text of a value never does. */
    static final byte STRING_TAG = 's';

    /**
     * The {@code jsonb} value of {@code column} as text: a string as {@link #STRING_TAG} and its
     * characters, unescaped; any other value as its JSON text.
     */
    static String taggedText(String column) {
        return "CASE WHEN jsonb_typeof(" + column + ") = 'string' THEN '" + (char) STRING_TAG + "' || (" + column
                + " #>> '{}') ELSE " + column + "::text END";
    }

    /** A field read with a cast; JSON values of another type read as null. */
    static SqlText cast(String alias, FieldRef field, Cast cast) {
        if (cast == null || cast == Cast.JSON || !field.isJson()) {
            return value(alias, field);
        }
        SqlText x = value(alias, field);
        SqlText sql = new SqlText();
        return switch (cast) {
            case FLOAT ->
                sql.sql("CASE WHEN jsonb_typeof(")
                        .append(x)
                        .sql(") = 'number' THEN (")
                        .append(value(alias, field))
                        .sql(")::float8 END");
            case INTEGER ->
                sql.sql("CASE WHEN jsonb_typeof(")
                        .append(x)
                        .sql(") = 'number' THEN round((")
                        .append(value(alias, field))
                        .sql(")::numeric)::bigint END");
            case TEXT ->
                sql.sql("CASE WHEN jsonb_typeof(")
                        .append(x)
                        .sql(") IN ('string', 'number', 'boolean') THEN ")
                        .append(value(alias, field))
                        .sql(" #>> '{}' END");
            case BOOLEAN ->
                sql.sql("CASE WHEN jsonb_typeof(")
                        .append(x)
                        .sql(") = 'boolean' THEN (")
                        .append(value(alias, field))
                        .sql(")::boolean END");
            case DATE ->
                sql.sql("CASE WHEN jsonb_typeof(")
                        .append(x)
                        .sql(") = 'string' THEN (")
                        .append(value(alias, field))
                        .sql(" #>> '{}')::timestamptz END");
            case JSON -> x;
        };
    }

    /** The SQL of a filter on the row under {@code alias}; it is never NULL where it matters (see {@link Filter}). */
    static SqlText filter(String alias, Table table, Filter filter) {
        return switch (filter) {
            case Filter.Condition c -> {
                SqlText positive = condition(alias, FieldRef.resolve(table, "", c.field(), ""), c);
                yield c.negated() ? negate(positive) : positive;
            }
            case Filter.And and -> join(alias, table, and.filters(), " AND ");
            case Filter.Or or -> join(alias, table, or.filters(), " OR ");
            case Filter.Not not -> negate(filter(alias, table, not.filter()));
        };
    }

    private static SqlText join(String alias, Table table, List<Filter> filters, String operator) {
        SqlText sql = new SqlText().sql("(");
        for (int i = 0; i < filters.size(); i++) {
            if (i > 0) {
                sql.sql(operator);
            }
            sql.append(filter(alias, table, filters.get(i)));
        }
        return sql.sql(")");
    }

    /** Two-valued NOT: an unknown (absent path, wrong JSON type) condition is false, so its negation is true. */
    private static SqlText negate(SqlText condition) {
        return new SqlText().sql("NOT coalesce(").append(condition).sql(", false)");
    }

    private static SqlText condition(String alias, FieldRef field, Filter.Condition c) {
        return field.isJson() ? jsonCondition(alias, field, c) : columnCondition(alias, field, c);
    }

    private static SqlText columnCondition(String alias, FieldRef field, Filter.Condition c) {
        SqlText x = value(alias, field);
        Object v = c.value();
        return switch (c.operator()) {
            case EQ -> v == null ? x.sql(" IS NULL") : x.sql(" = ").bind(columnValue(field.kind(), v));
            case GT -> x.sql(" > ").bind(columnValue(field.kind(), v));
            case LT -> x.sql(" < ").bind(columnValue(field.kind(), v));
            case GE -> x.sql(" >= ").bind(columnValue(field.kind(), v));
            case LE -> x.sql(" <= ").bind(columnValue(field.kind(), v));
            case IN -> x.sql(" = ANY(").bind(array(field.kind(), (List<?>) v)).sql(")");
            case LIKE, ILIKE -> {
                SqlText text = field.kind() == ColumnKind.UUID
                        ? new SqlText().append(x).sql("::text")
                        : x;
                yield text.sql(c.operator() == Operator.LIKE ? " LIKE " : " ILIKE ")
                        .bind(v);
            }
            default -> throw new IllegalStateException(c.operator() + " on a column passed validation");
        };
    }

    private static SqlText jsonCondition(String alias, FieldRef field, Filter.Condition c) {
        Object v = c.value();
        SqlText sql = new SqlText();
        return switch (c.operator()) {
            case EQ -> jsonEquals(alias, field, v);
            case GT, LT, GE, LE ->
                sql.append(v instanceof String ? jsonText(alias, field) : jsonNumber(alias, field))
                        .sql(
                                switch (c.operator()) {
                                    case GT -> " > ";
                                    case LT -> " < ";
                                    case GE -> " >= ";
                                    default -> " <= ";
                                })
                        .bind(v instanceof String ? v : JsonCodec.write(v))
                        .sql(v instanceof String ? "" : "::numeric");
            case IN -> {
                List<?> values = (List<?>) v;
                if (!values.isEmpty() && values.stream().allMatch(String.class::isInstance)) {
                    yield jsonText(alias, field)
                            .sql(" = ANY(")
                            .bind(new CompiledQuery.ArrayParameter("text", new ArrayList<>(values)))
                            .sql(")");
                }
                List<Object> texts = new ArrayList<>();
                for (Object o : values) {
                    texts.add(JsonCodec.write(o));
                }
                if (!values.isEmpty() && values.stream().allMatch(Number.class::isInstance)) {
                    yield jsonNumber(alias, field)
                            .sql(" = ANY(")
                            .bind(new CompiledQuery.ArrayParameter("text", texts))
                            .sql("::numeric[])");
                }
                yield sql.append(value(alias, field))
                        .sql(" = ANY(")
                        .bind(new CompiledQuery.ArrayParameter("text", texts))
                        .sql("::jsonb[])");
            }
            case LIKE, ILIKE ->
                sql.sql("(jsonb_typeof(")
                        .append(value(alias, field))
                        .sql(") = 'string' AND ")
                        .append(value(alias, field))
                        .sql(" #>> '{}'")
                        .sql(c.operator() == Operator.LIKE ? " LIKE " : " ILIKE ")
                        .bind(v)
                        .sql(")");
            case HAS_KEY ->
                sql.sql("(jsonb_typeof(")
                        .append(value(alias, field))
                        .sql(") = 'object' AND ")
                        .append(value(alias, field))
                        .sql(" ?? ")
                        .bind(v)
                        .sql(")");
            case CONTAINS ->
                sql.append(value(alias, field))
                        .sql(" @> ")
                        .bind(JsonCodec.write(v))
                        .sql("::jsonb");
            case OF_LENGTH, LONGER, SHORTER ->
                sql.append(arrayLength(alias, field))
                        .sql(
                                c.operator() == Operator.OF_LENGTH
                                        ? " = "
                                        : c.operator() == Operator.LONGER ? " > " : " < ")
                        .bind(v);
            case OF_TYPE ->
                sql.sql("jsonb_typeof(").append(value(alias, field)).sql(") = ").bind(v);
        };
    }

    /**
     * A string or a number compares as text or numeric, through the same expressions as the ordering
     * comparisons, so that one expression index on the path serves all of them; other values as JSON.
     */
    private static SqlText jsonEquals(String alias, FieldRef field, Object v) {
        if (v instanceof String) {
            return jsonText(alias, field).sql(" = ").bind(v);
        }
        if (v instanceof Number) {
            return jsonNumber(alias, field).sql(" = ").bind(JsonCodec.write(v)).sql("::numeric");
        }
        return value(alias, field).sql(" = ").bind(JsonCodec.write(v)).sql("::jsonb");
    }

    /**
     * A JSON number as {@code numeric}, NULL for anything else: numeric comparisons never match
     * strings or booleans. Written exactly as the expression indexes on numeric paths are.
     */
    static SqlText jsonNumber(String alias, FieldRef field) {
        return new SqlText()
                .sql("CASE WHEN jsonb_typeof(")
                .append(value(alias, field))
                .sql(") = 'number' THEN (")
                .append(value(alias, field))
                .sql(")::numeric END");
    }

    /** A JSON string as {@code text}, NULL for anything else. */
    static SqlText jsonText(String alias, FieldRef field) {
        return new SqlText()
                .sql("CASE WHEN jsonb_typeof(")
                .append(value(alias, field))
                .sql(") = 'string' THEN ")
                .append(value(alias, field))
                .sql(" #>> '{}' END");
    }

    /**
     * The length of a JSON array, NULL for anything else. Written exactly as the expression
     * indexes on array lengths are, e.g. {@code node_structure_sites_idx}.
     */
    static SqlText arrayLength(String alias, FieldRef field) {
        return new SqlText()
                .sql("jsonb_array_length(CASE WHEN jsonb_typeof(")
                .append(value(alias, field))
                .sql(") = 'array' THEN ")
                .append(value(alias, field))
                .sql(" END)");
    }

    private static Object columnValue(ColumnKind kind, Object value) {
        return switch (kind) {
            case UUID -> UUID.fromString((String) value);
            case TIMESTAMP -> OffsetDateTime.parse((String) value);
            default -> value;
        };
    }

    private static CompiledQuery.ArrayParameter array(ColumnKind kind, List<?> values) {
        List<Object> converted = new ArrayList<>(values.size());
        for (Object v : values) {
            converted.add(columnValue(kind, v));
        }
        String type = switch (kind) {
            case LONG -> "bigint";
            case UUID -> "uuid";
            case TIMESTAMP -> "timestamptz";
            default -> "text";
        };
        return new CompiledQuery.ArrayParameter(type, converted);
    }
}
