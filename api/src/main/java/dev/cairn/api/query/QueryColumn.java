package dev.cairn.api.query;

import java.io.StringWriter;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import tools.jackson.core.JsonGenerator;

import dev.cairn.storage.query.Projection;
import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.query.Vertex;

/**
 * One value of a query's rows: the row's value at {@code index}, projection {@code key} of vertex
 * (or edge) {@code tag}. Every surface that shows rows as a table names and writes them this way.
 *
 * @param tag   the vertex's tag, or an edge's ({@code source--target})
 * @param index where the value sits in a {@link dev.cairn.storage.query.Row}
 * @param key   the projection's key: a field, a JSON path, {@code *} for a whole row, {@code count(id)}
 */
public record QueryColumn(String tag, int index, String key) {

    /** The values of {@code spec}'s rows in the order the compiler selects them: each vertex's, then its edge's. */
    public static List<QueryColumn> of(QuerySpec spec) {
        List<QueryColumn> columns = new ArrayList<>();
        int index = 0;
        for (Vertex v : spec.path()) {
            for (Projection p : v.projections()) {
                columns.add(new QueryColumn(v.tag(), index++, p.key()));
            }
            for (Projection p : v.edgeProjections()) {
                columns.add(new QueryColumn(v.edgeTag(), index++, p.key()));
            }
        }
        return columns;
    }

    /** The column's heading in a table: its key alone when one tag projects, else {@code tag.key}. */
    public static List<String> headings(List<QueryColumn> columns) {
        Set<String> tags = new HashSet<>();
        columns.forEach(c -> tags.add(c.tag()));
        return columns.stream()
                .map(c -> tags.size() == 1 ? c.key() : c.tag() + "." + c.key())
                .toList();
    }

    /** A value as text in a table cell: null as nothing, a scalar as itself, a JSON object or array or a whole row as JSON. */
    public String text(Object value) {
        if (value == null) {
            return "";
        }
        if (value instanceof String
                || value instanceof Number
                || value instanceof Boolean
                || value instanceof UUID
                || value instanceof OffsetDateTime) {
            return value.toString();
        }
        StringWriter out = new StringWriter();
        try (JsonGenerator g = RowJson.MAPPER.createGenerator(out)) {
            RowJson.cell(g, this, value);
        }
        return out.toString();
    }
}
