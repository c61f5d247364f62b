package dev.cairn.storage.query;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
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
 *
 * <p>A plain JSON path (no cast, no aggregate) is read as two columns where nothing compares
 * its values (no DISTINCT, no GROUP BY, not an order key): its value as text ({@code ->>}: a
 * string's raw characters, any other value's JSON text, SQL NULL for JSON's null and a missing
 * key alike) and whether it is a string. PostgreSQL writing a long string as JSON text
 * (escaping every character) costs more than reading it; the reader writes it as JSON again
 * where it needs to, which is cheaper. Such a path uses its column twice (the type test and the
 * value), so it reads the shared document too.
 */
final class SharedDocuments {

    private final String row;
    private final String documents;
    private final Set<String> columns;
    private final Set<Projection> splits;

    private SharedDocuments(String row, String documents, Set<String> columns, Set<Projection> splits) {
        this.row = row;
        this.documents = documents;
        this.columns = columns;
        this.splits = splits;
    }

    /**
     * The JSON columns of vertex {@code i} of {@code spec} (read as {@code row}) that its projections use twice
     * or more, and the paths it reads as a string or a JSON value.
     */
    static SharedDocuments of(QuerySpec spec, Vertex v, int i, String row) {
        Map<String, Integer> uses = new HashMap<>();
        Set<Projection> splits = new HashSet<>();
        boolean compared = spec.distinct() || spec.aggregates();
        for (Projection p : v.projections()) {
            if (p.field().equals(Projection.ALL)) {
                continue;
            }
            FieldRef field = FieldRef.resolve(v.entity().table(), "", p.field(), "");
            if (field.isJson() && !field.column().isDerived()) {
                boolean split = !compared
                        && !field.path().isEmpty()
                        && p.cast() == null
                        && p.aggregate() == null
                        && spec.orderBy().stream()
                                .noneMatch(o ->
                                        o.tag().equals(v.tag()) && o.field().equals(p.field()));
                if (split) {
                    splits.add(p);
                }
                uses.merge(field.column().name(), split ? 2 : 1, Integer::sum);
            }
        }
        Set<String> shared = new TreeSet<>();
        uses.forEach((column, n) -> {
            if (n > 1) {
                shared.add(column);
            }
        });
        return new SharedDocuments(row, "d" + i, shared, splits);
    }

    /** Reads a link's fields from its own row: a link has no JSON columns. */
    static SharedDocuments none(String row) {
        return new SharedDocuments(row, null, Set.of(), Set.of());
    }

    /** Whether {@code p} is read as two columns, {@link #stringOrJson}. */
    boolean splits(Projection p) {
        return splits.contains(p);
    }

    /**
     * The two columns of a JSON path in the shared document: {@code d0.attributes ->> 'k', jsonb_typeof(d0.attributes
     * -> 'k') = 'string'} ({@code #>>} and {@code #>} for a longer path).
     */
    SqlText stringOrJson(FieldRef field) {
        String alias = aliasOf(field);
        SqlText sql = new SqlText().sql(alias).sql(".").sql(field.column().name());
        if (field.path().size() == 1) {
            sql.sql(" ->> ").bind(field.path().getFirst());
        } else {
            sql.sql(" #>> ").bind(new CompiledQuery.ArrayParameter("text", new ArrayList<>(field.path())));
        }
        return sql.sql(", jsonb_typeof(")
                .append(Expressions.value(alias, field))
                .sql(") = 'string'");
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
