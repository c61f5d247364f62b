package dev.cairn.api.pages.query;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

import dev.cairn.api.query.QueryColumn;
import dev.cairn.storage.query.Row;

/**
 * Rows as CSV (RFC 4180): a heading per column, then a line per row; a field with a comma, a quote or a line
 * break is quoted. Text that a spreadsheet would run as a formula ({@code =}, {@code +}, {@code @} first) is
 * written after an apostrophe, as spreadsheets expect of literal text; numbers are written as they are.
 */
final class CsvRows {

    private final Writer out;
    private final List<QueryColumn> columns;

    CsvRows(Writer out, List<QueryColumn> columns) {
        this.out = out;
        this.columns = columns;
    }

    void headings() throws IOException {
        line(QueryColumn.headings(columns));
    }

    void row(Row row) throws IOException {
        String[] fields = new String[columns.size()];
        for (int i = 0; i < fields.length; i++) {
            QueryColumn c = columns.get(i);
            Object value = row.get(c.index());
            String text = c.text(value);
            fields[i] = value instanceof String && startsFormula(text) ? "'" + text : text;
        }
        line(List.of(fields));
    }

    private void line(List<String> fields) throws IOException {
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            out.write(quoted(fields.get(i)));
        }
        out.write("\r\n");
    }

    static String quoted(String field) {
        boolean plain = field.chars().noneMatch(ch -> ch == ',' || ch == '"' || ch == '\n' || ch == '\r');
        return plain ? field : '"' + field.replace("\"", "\"\"") + '"';
    }

    private static boolean startsFormula(String text) {
        return !text.isEmpty() && "=+@".indexOf(text.charAt(0)) >= 0;
    }
}
