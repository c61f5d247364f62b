package dev.cairn.cli.output;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rows under headers, padded to columns that fit the terminal: when the table is wider, the widest
 * columns give way first and their cells end in '…'; the last column is not padded. Numbers are
 * right-aligned.
 */
public final class TextTable {

    private static final String GAP = "  ";
    private static final int NARROWEST = 4;

    private final String[] headers;
    private final boolean[] right;
    private final List<String[]> rows = new ArrayList<>();

    private TextTable(String[] headers) {
        this.headers = headers;
        this.right = new boolean[headers.length];
    }

    public static TextTable of(String... headers) {
        return new TextTable(headers);
    }

    /** Right-aligns the named columns (counts, sizes, ids). */
    public TextTable alignRight(String... columns) {
        for (String column : columns) {
            int index = Arrays.asList(headers).indexOf(column);
            if (index < 0) {
                throw new IllegalArgumentException("no column " + column);
            }
            right[index] = true;
        }
        return this;
    }

    public TextTable row(Object... cells) {
        if (cells.length != headers.length) {
            throw new IllegalArgumentException(cells.length + " cells for " + headers.length + " columns");
        }
        String[] row = new String[cells.length];
        for (int i = 0; i < cells.length; i++) {
            row[i] = cells[i] == null ? "" : oneLine(cells[i].toString());
        }
        rows.add(row);
        return this;
    }

    public boolean isEmpty() {
        return rows.isEmpty();
    }

    public int size() {
        return rows.size();
    }

    /** The table as lines of at most {@code width} characters (code points), headers first. */
    public List<String> render(int width, Style style) {
        int[] widths = fit(naturalWidths(), width);
        List<String> lines = new ArrayList<>(rows.size() + 1);
        lines.add(style.header(line(headers, widths)));
        for (String[] row : rows) {
            lines.add(line(row, widths));
        }
        return lines;
    }

    private int[] naturalWidths() {
        int[] widths = new int[headers.length];
        for (int i = 0; i < headers.length; i++) {
            widths[i] = length(headers[i]);
        }
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                widths[i] = Math.max(widths[i], length(row[i]));
            }
        }
        return widths;
    }

    /** Narrows the widest column one step at a time until the line fits or every column is at its floor. */
    private static int[] fit(int[] widths, int width) {
        int total = Arrays.stream(widths).sum() + GAP.length() * (widths.length - 1);
        while (total > width) {
            int widest = 0;
            for (int i = 1; i < widths.length; i++) {
                if (widths[i] > widths[widest]) {
                    widest = i;
                }
            }
            if (widths[widest] <= NARROWEST) {
                break;
            }
            widths[widest]--;
            total--;
        }
        return widths;
    }

    private String line(String[] cells, int[] widths) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            String cell = cut(cells[i], widths[i]);
            int pad = widths[i] - length(cell);
            boolean last = i == cells.length - 1;
            if (right[i]) {
                line.append(" ".repeat(pad)).append(cell);
            } else {
                line.append(cell);
                if (!last) {
                    line.append(" ".repeat(pad));
                }
            }
            if (!last) {
                line.append(GAP);
            }
        }
        return line.toString().stripTrailing();
    }

    private static String cut(String cell, int width) {
        if (length(cell) <= width) {
            return cell;
        }
        return cell.substring(0, cell.offsetByCodePoints(0, width - 1)) + "…";
    }

    private static int length(String text) {
        return text.codePointCount(0, text.length());
    }

    private static String oneLine(String text) {
        return text.indexOf('\n') < 0 && text.indexOf('\t') < 0
                ? text
                : text.replace('\n', ' ').replace('\t', ' ');
    }
}
