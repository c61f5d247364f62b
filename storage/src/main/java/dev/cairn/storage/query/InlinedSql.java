package dev.cairn.storage.query;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.time.temporal.Temporal;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.postgresql.PGConnection;

/**
 * A compiled query's text with its parameters written in as literals, for a statement that takes
 * none: {@code COPY (…) TO STDOUT}. Each value is quoted by the driver's own escaping (the one its
 * simple query mode uses, which follows the connection's {@code standard_conforming_strings}) and
 * cast to the type the driver binds such a value as, so the text means what the bound statement
 * means; the planner sees the values, as in a custom plan.
 */
final class InlinedSql {

    /** The element types the compiler gives its array parameters, as SQL. */
    private static final Map<String, String> ARRAY_TYPES =
            Map.of("text", "text", "bigint", "int8", "uuid", "uuid", "timestamptz", "timestamptz");

    private InlinedSql() {}

    /**
     * The text of {@code query} with each {@code ?} replaced by its parameter and each {@code ??}
     * (the JDBC escape of PostgreSQL's {@code ?} operator) by {@code ?}. The compiler's own quoted
     * strings and names are copied as they are.
     */
    static String of(CompiledQuery query, PGConnection connection) throws SQLException {
        String sql = query.sql();
        List<Object> parameters = query.parameters();
        StringBuilder out = new StringBuilder(sql.length() + 24 * parameters.size());
        int next = 0;
        for (int i = 0; i < sql.length(); i++) {
            char ch = sql.charAt(i);
            if (ch == '\'' || ch == '"') {
                // a doubled quote inside ends one quoted part and starts the next: copied all the same
                int end = sql.indexOf(ch, i + 1);
                if (end < 0) {
                    throw new IllegalStateException("unterminated quote at " + i + " in " + sql);
                }
                out.append(sql, i, end + 1);
                i = end;
            } else if (ch != '?') {
                out.append(ch);
            } else if (i + 1 < sql.length() && sql.charAt(i + 1) == '?') {
                out.append('?');
                i++;
            } else {
                if (next == parameters.size()) {
                    throw new IllegalStateException("more placeholders than parameters in " + sql);
                }
                literal(out, parameters.get(next++), connection);
            }
        }
        if (next != parameters.size()) {
            throw new IllegalStateException(parameters.size() + " parameters for " + next + " placeholders in " + sql);
        }
        return out.toString();
    }

    private static void literal(StringBuilder out, Object value, PGConnection connection) throws SQLException {
        switch (value) {
            case null -> out.append("NULL");
            case String s -> quoted(out, s, connection).append("::varchar");
            case Long l -> quoted(out, l.toString(), connection).append("::int8");
            case Integer n -> quoted(out, n.toString(), connection).append("::int4");
            // Java's text of a double (NaN, Infinity, 1.0E-5 among them) is PostgreSQL's float8 input
            case Double d -> quoted(out, d.toString(), connection).append("::float8");
            case BigDecimal d -> quoted(out, d.toString(), connection).append("::numeric");
            case Boolean b -> out.append(b ? "true" : "false");
            case UUID u -> quoted(out, u.toString(), connection).append("::uuid");
            case OffsetDateTime t -> quoted(out, t.toString(), connection).append("::timestamptz");
            case CompiledQuery.ArrayParameter a -> array(out, a, connection);
            default ->
                throw new IllegalStateException(
                        "no literal for a parameter of type " + value.getClass().getName());
        }
    }

    private static void array(StringBuilder out, CompiledQuery.ArrayParameter array, PGConnection connection)
            throws SQLException {
        String type = ARRAY_TYPES.get(array.elementType());
        if (type == null) {
            throw new IllegalStateException("no literal for an array of " + array.elementType());
        }
        out.append("ARRAY[");
        for (int i = 0; i < array.elements().size(); i++) {
            Object e = array.elements().get(i);
            if (i > 0) {
                out.append(", ");
            }
            if (e == null) {
                out.append("NULL");
            } else {
                // as the bound statement: times as their ISO text, everything else as its text
                quoted(out, e instanceof Temporal ? e.toString() : String.valueOf(e), connection);
            }
            out.append("::").append(type);
        }
        out.append("]::").append(type).append("[]");
    }

    private static StringBuilder quoted(StringBuilder out, String value, PGConnection connection) throws SQLException {
        return out.append('\'').append(connection.escapeLiteral(value)).append('\'');
    }
}
