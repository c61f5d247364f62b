package dev.cairn.storage.query;

import java.util.List;
import java.util.Objects;

/**
 * One SQL statement and its parameters, in order. The text holds only whitelisted table and
 * column names, the compiler's own SQL, and {@code ?} placeholders: every value and every
 * JSON key of the query is a parameter. {@code ??} in the text is PostgreSQL's {@code ?}
 * operator, escaped for JDBC.
 *
 * @param sql        the statement, for a JDBC {@link java.sql.PreparedStatement}
 * @param parameters {@link Long}, {@link String}, {@link java.util.UUID},
 *                   {@link java.time.OffsetDateTime} or {@link ArrayParameter} values
 */
public record CompiledQuery(String sql, List<Object> parameters) {

    public CompiledQuery {
        Objects.requireNonNull(sql, "sql");
        parameters = List.copyOf(parameters);
    }

    /** A SQL array parameter, e.g. {@code text[]} for a JSON path or {@code bigint[]} for {@code in}. */
    public record ArrayParameter(String elementType, List<Object> elements) {
        public ArrayParameter {
            Objects.requireNonNull(elementType, "elementType");
            elements = List.copyOf(elements);
        }
    }
}
