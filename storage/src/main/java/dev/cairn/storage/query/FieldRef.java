package dev.cairn.storage.query;

import java.util.Arrays;
import java.util.List;

/**
 * A field of a query resolved against its table: a whitelisted column, and for JSON columns an
 * optional path inside the value ({@code attributes.cell.0.0} is column {@code attributes}, path
 * {@code [cell, 0, 0]}; numeric elements index arrays).
 */
record FieldRef(Column column, List<String> path) {

    FieldRef {
        path = List.copyOf(path);
    }

    boolean isJson() {
        return column.kind() == ColumnKind.JSON;
    }

    /** The kind of the value: a path inside a JSON column is JSON. */
    ColumnKind kind() {
        return column.kind();
    }

    static FieldRef resolve(Table table, String entityName, String field, String where) {
        if (field == null || field.isBlank()) {
            throw new InvalidQueryException(
                    where + ": a field name is empty; fields of " + entityName + " are " + describe(table));
        }
        String[] parts = field.split("\\.", -1);
        Column column = table.column(parts[0])
                .orElseThrow(() -> new InvalidQueryException(where + ": unknown field '" + field + "' of " + entityName
                        + "; fields are " + describe(table)));
        List<String> path = Arrays.asList(parts).subList(1, parts.length);
        if (!path.isEmpty() && column.kind() != ColumnKind.JSON) {
            throw new InvalidQueryException(where + ": field '" + field + "': column " + column.name()
                    + " is not JSON and has no path inside it; JSON columns of " + entityName + " are "
                    + jsonColumns(table));
        }
        for (String element : path) {
            if (element.isEmpty()) {
                throw new InvalidQueryException(where + ": field '" + field + "' has an empty path element"
                        + " (write attributes.a.b, elements separated by single dots)");
            }
        }
        return new FieldRef(column, path);
    }

    static String describe(Table table) {
        List<String> json = jsonColumns(table);
        return table.columnNames()
                + (json.isEmpty() ? "" : " and JSON paths under " + json + " (e.g. " + json.getFirst() + ".a.b.0)");
    }

    private static List<String> jsonColumns(Table table) {
        return table.columns().stream()
                .filter(c -> c.kind() == ColumnKind.JSON)
                .map(Column::name)
                .toList();
    }
}
