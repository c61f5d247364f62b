package dev.cairn.storage.query;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The JSON columns a vertex projects more than once (several keys of its attributes, say), read
 * through a lateral sub-select that decompresses each row's document once.
 *
 * <p>PostgreSQL stores a large {@code jsonb} compressed, and every operator on it ({@code ->},
 * {@code #>}, {@code jsonb_typeof}) decompresses the whole document again: five keys of a 4 KB
 * document cost five decompressions a row. {@code t0.attributes || '{}'::jsonb} decompresses it
 * once and, concatenated with an empty object, is the same document (PostgreSQL returns the
 * other operand as it is); {@code OFFSET 0} keeps the planner from folding the sub-select into
 * the select list, which would repeat the expression in every projection. Every JSON column of
 * the query's tables is checked to hold an object (V1), so the concatenation never changes a
 * value. Filters and orders stay on the table's own column: the expression indexes are built on
 * those expressions.
 */
final class SharedDocuments {

    private final String row;
    private final String documents;
    private final Set<String> columns;

    private SharedDocuments(String row, String documents, Set<String> columns) {
        this.row = row;
        this.documents = documents;
        this.columns = columns;
    }

    /** The JSON columns of vertex {@code i} (read as {@code row}) that its projections use twice or more. */
    static SharedDocuments of(Vertex v, int i, String row) {
        Map<String, Integer> uses = new HashMap<>();
        for (Projection p : v.projections()) {
            if (p.field().equals(Projection.ALL)) {
                continue;
            }
            FieldRef field = FieldRef.resolve(v.entity().table(), "", p.field(), "");
            if (field.isJson() && !field.column().isDerived()) {
                uses.merge(field.column().name(), 1, Integer::sum);
            }
        }
        Set<String> shared = new TreeSet<>();
        uses.forEach((column, n) -> {
            if (n > 1) {
                shared.add(column);
            }
        });
        return new SharedDocuments(row, "d" + i, shared);
    }

    /** Reads a link's fields from its own row: a link has no JSON columns. */
    static SharedDocuments none(String row) {
        return new SharedDocuments(row, null, Set.of());
    }

    /** The alias of the vertex's row, for its columns and whole rows. */
    String row() {
        return row;
    }

    /** The alias {@code field} is read under in the select list: the sub-select's for a shared column. */
    String aliasOf(FieldRef field) {
        return columns.contains(field.column().name()) && !field.column().isDerived() ? documents : row;
    }

    /** {@code CROSS JOIN LATERAL (SELECT t0.attributes || '{}'::jsonb AS attributes OFFSET 0) AS d0}, or nothing. */
    SqlText lateral() {
        SqlText sql = new SqlText();
        if (columns.isEmpty()) {
            return sql;
        }
        List<String> read = columns.stream()
                .map(c -> row + "." + c + " || '{}'::jsonb AS " + c)
                .toList();
        return sql.sql(" CROSS JOIN LATERAL (SELECT ")
                .sql(String.join(", ", read))
                .sql(" OFFSET 0) AS ")
                .sql(documents);
    }
}
