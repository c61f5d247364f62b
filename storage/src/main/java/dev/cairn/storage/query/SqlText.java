package dev.cairn.storage.query;

import java.util.ArrayList;
import java.util.List;

/** SQL text under construction with its parameters: values go in only through {@link #bind}. */
final class SqlText {

    private final StringBuilder sql = new StringBuilder(512);
    private final List<Object> parameters = new ArrayList<>();

    /** Appends compiler-made SQL: keywords, aliases and whitelisted names, never a user's string. */
    SqlText sql(String text) {
        sql.append(text);
        return this;
    }

    /** Appends a placeholder bound to {@code value}. */
    SqlText bind(Object value) {
        sql.append('?');
        parameters.add(value);
        return this;
    }

    SqlText append(SqlText other) {
        sql.append(other.sql);
        parameters.addAll(other.parameters);
        return this;
    }

    boolean isEmpty() {
        return sql.isEmpty();
    }

    CompiledQuery toQuery() {
        return new CompiledQuery(sql.toString(), parameters);
    }

    @Override
    public String toString() {
        return sql.toString();
    }
}
