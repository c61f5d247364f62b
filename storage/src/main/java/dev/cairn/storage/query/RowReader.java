package dev.cairn.storage.query;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.OffsetDateTime;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.cairn.storage.graph.LinkType;
import dev.cairn.storage.graph.NodeRecord;

/**
 * Reads result rows in two steps: {@link #raw} takes the cells off the JDBC result set (JSON as
 * its undecoded bytes), and {@link #decode} turns them into a {@link Row}. The second step
 * needs no connection, so it can run on another thread while the next rows are fetched.
 */
final class RowReader {

    private final Row.Header header;
    private final int columns;
    private final boolean jsonAsText;
    private final boolean holdsJson;
    private final boolean decodesJson;

    /**
     * With {@code jsonAsText}, JSON projections are {@link UndecodedJson}, or {@link UndecodedString} for a
     * string the statement wrote as its characters; whole rows are decoded either way.
     */
    RowReader(List<OutputField> outputs, boolean jsonAsText) {
        this.header = new Row.Header(outputs);
        OutputField last = outputs.getLast();
        this.columns = last.column() + last.width() - 1;
        this.jsonAsText = jsonAsText;
        this.holdsJson = outputs.stream().anyMatch(o -> o.reader() == ValueReader.JSON);
        this.decodesJson = outputs.stream()
                .anyMatch(o -> (o.reader() == ValueReader.JSON && !jsonAsText)
                        || (o.reader().table() != null
                                && o.reader().table().columns().stream().anyMatch(c -> c.kind() == ColumnKind.JSON)));
    }

    /** Whether rows hold JSON values (a row may be several KiB), decoded or not. */
    boolean holdsJson() {
        return holdsJson || decodesJson;
    }

    /** Whether decoding is worth moving off the fetching thread. */
    boolean decodesJson() {
        return decodesJson;
    }

    /**
     * The reader of each column, in order, for a read from a COPY ({@link CopyCells}), or {@code null}
     * when a column is one a COPY does not read (a {@link ValueReader#NUMBER}).
     */
    ValueReader[] copyColumns() {
        ValueReader[] readers = new ValueReader[columns];
        for (OutputField o : header.outputs()) {
            Table table = o.reader().table();
            for (int k = 0; k < o.width(); k++) {
                readers[o.column() - 1 + k] = table == null
                        ? o.reader()
                        : ValueReader.forColumn(table.columns().get(k).kind());
            }
        }
        for (ValueReader r : readers) {
            if (r == null || !CopyCells.decodes(r)) {
                return null;
            }
        }
        return readers;
    }

    Object[] raw(ResultSet rs) throws SQLException {
        Object[] cells = new Object[columns];
        for (OutputField o : header.outputs()) {
            Table table = o.reader().table();
            if (table == null) {
                cells[o.column() - 1] = cell(rs, o.column(), o.reader());
                continue;
            }
            for (int k = 0; k < o.width(); k++) {
                cells[o.column() - 1 + k] = cell(
                        rs,
                        o.column() + k,
                        ValueReader.forColumn(table.columns().get(k).kind()));
            }
        }
        return cells;
    }

    private static Object cell(ResultSet rs, int column, ValueReader reader) throws SQLException {
        return switch (reader) {
            case LONG -> {
                long v = rs.getLong(column);
                yield rs.wasNull() ? null : v;
            }
            case DOUBLE -> {
                double v = rs.getDouble(column);
                yield rs.wasNull() ? null : v;
            }
            case BOOLEAN -> {
                boolean v = rs.getBoolean(column);
                yield rs.wasNull() ? null : v;
            }
            case TEXT -> rs.getString(column);
            case UUID -> rs.getObject(column, UUID.class);
            case TIMESTAMP -> rs.getObject(column, OffsetDateTime.class);
            // the driver's bytes of the text form: no String in between
            case JSON -> rs.getBytes(column);
            case NUMBER -> number(rs.getObject(column));
            default -> throw new IllegalStateException(reader + " is a whole row");
        };
    }

    private static Object number(Object value) {
        if (value instanceof BigDecimal d) {
            try {
                return d.longValueExact();
            } catch (ArithmeticException e) {
                return d.doubleValue();
            }
        }
        return value;
    }

    /** The row of {@code cells}, which take {@code bytes} ({@link #bytes}). */
    Row decode(Object[] cells, long bytes) {
        List<OutputField> outputs = header.outputs();
        Object[] values = new Object[outputs.size()];
        for (int i = 0; i < values.length; i++) {
            OutputField o = outputs.get(i);
            int c = o.column() - 1;
            values[i] = switch (o.reader()) {
                case JSON -> jsonAsText ? text((byte[]) cells[c]) : JsonDecoder.decode((byte[]) cells[c]);
                case NODE_ROW ->
                    new NodeRecord(
                            (Long) cells[c],
                            (UUID) cells[c + 1],
                            (String) cells[c + 2],
                            (String) cells[c + 3],
                            (String) cells[c + 4],
                            (String) cells[c + 5],
                            (OffsetDateTime) cells[c + 6],
                            (OffsetDateTime) cells[c + 7],
                            (Long) cells[c + 8],
                            (Long) cells[c + 9],
                            map(cells[c + 10]),
                            map(cells[c + 11]),
                            map(cells[c + 12]),
                            (String) cells[c + 13]);
                case GROUP_ROW ->
                    new EntityRow.Group(
                            (Long) cells[c],
                            (UUID) cells[c + 1],
                            (String) cells[c + 2],
                            (String) cells[c + 3],
                            (String) cells[c + 4],
                            (OffsetDateTime) cells[c + 5],
                            (Long) cells[c + 6],
                            map(cells[c + 7]));
                case COMPUTER_ROW ->
                    new EntityRow.Computer(
                            (Long) cells[c],
                            (UUID) cells[c + 1],
                            (String) cells[c + 2],
                            (String) cells[c + 3],
                            (String) cells[c + 4],
                            (String) cells[c + 5],
                            (String) cells[c + 6],
                            map(cells[c + 7]));
                case USER_ROW ->
                    new EntityRow.User(
                            (Long) cells[c],
                            (String) cells[c + 1],
                            (String) cells[c + 2],
                            (String) cells[c + 3],
                            (String) cells[c + 4]);
                case COMMENT_ROW ->
                    new EntityRow.Comment(
                            (Long) cells[c],
                            (UUID) cells[c + 1],
                            (Long) cells[c + 2],
                            (Long) cells[c + 3],
                            (OffsetDateTime) cells[c + 4],
                            (OffsetDateTime) cells[c + 5],
                            (String) cells[c + 6]);
                case LOG_ROW ->
                    new EntityRow.Log(
                            (Long) cells[c],
                            (UUID) cells[c + 1],
                            (OffsetDateTime) cells[c + 2],
                            (String) cells[c + 3],
                            (String) cells[c + 4],
                            (Long) cells[c + 5],
                            (String) cells[c + 6],
                            map(cells[c + 7]));
                case LINK_ROW ->
                    new EntityRow.Link(
                            (Long) cells[c],
                            (Long) cells[c + 1],
                            (Long) cells[c + 2],
                            LinkType.fromDbValue((String) cells[c + 3]),
                            (String) cells[c + 4]);
                default -> cells[c];
            };
        }
        return new Row(header, values, bytes);
    }

    /**
     * About the bytes a row's cells take: the length of each JSON text and string, eight for any other value.
     * Large values are JSON and strings, so this bounds what a row holds, decoded or not, within a small factor.
     */
    static long bytes(Object[] cells) {
        long bytes = 0;
        for (Object cell : cells) {
            bytes += switch (cell) {
                case byte[] text -> text.length;
                case String text -> text.length();
                case null, default -> 8;
            };
        }
        return bytes;
    }

    /** JSON text undecoded, or a string's characters where the statement wrote them after its tag. */
    private static Object text(byte[] json) {
        if (json == null) {
            return null;
        }
        return json.length > 0 && json[0] == Expressions.STRING_TAG
                ? new UndecodedString(Arrays.copyOfRange(json, 1, json.length))
                : new UndecodedJson(json);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object bytes) {
        Object value = JsonDecoder.decode((byte[]) bytes);
        return value == null ? Map.of() : Collections.unmodifiableMap((Map<String, Object>) value);
    }
}
