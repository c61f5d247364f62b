package dev.cairn.api.query;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import tools.jackson.core.JsonGenerator;

import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.query.Row;
import dev.cairn.storage.query.UndecodedJson;
import dev.cairn.storage.query.UndecodedString;

/**
 * Query rows as columns, for readers that build a table: a first line naming the columns
 * ({@code {"columns": [{"tag": "d", "key": "attributes.energy"}, …]}}), then a line per block of
 * up to {@value #BLOCK} rows (fewer where their values pass {@value #BLOCK_BYTES} bytes), each an
 * array holding one array of values per column, in the header's order. A whole row ({@code *}) is
 * one column of objects. Names are written once, not in every row, and a reader parses a block at
 * once and extends each column by it.
 *
 * <p>With {@code rawStrings} ({@value #RAW_STRINGS}), a column whose values in a block are all
 * strings or null is {@code {"utf8": [length, null, …]}} in the block's line instead, each
 * string's length in bytes, and the strings' UTF-8 bytes follow the line's end, column after
 * column, unescaped and unseparated: the reader decodes each string from its bytes instead of
 * unescaping JSON. A string at a JSON path comes from the database as its characters
 * ({@link UndecodedString}), so no one escapes or unescapes it on the way.
 */
final class ColumnBlocks implements RowLines {

    /** Rows per block at most: few enough that a reader parses one while the server reads and sends the next. */
    static final int BLOCK = 1024;
    /**
     * Bytes of values per block at most, for long rows: the first block is what the reader waits for before it
     * starts, and the last what it has left when the server is done (1,024 logs of 2 KB were 2.4 MB each way).
     */
    static final int BLOCK_BYTES = 256 * 1024;
    /** The media type of blocks whose string columns follow their line as raw UTF-8. */
    static final String RAW_STRINGS = "application/x-cairn-columns";

    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

    private final List<QueryColumn> names;
    private final boolean rawStrings;
    private final List<Row> block = new ArrayList<>(BLOCK);
    private final List<byte[]> strings = new ArrayList<>();
    private long blockBytes;

    ColumnBlocks(QuerySpec spec, boolean rawStrings) {
        this.names = new RowJson(spec).names();
        this.rawStrings = rawStrings;
    }

    @Override
    public void begin(JsonGenerator g) {
        g.writeStartObject();
        g.writeName("columns");
        g.writeStartArray();
        for (QueryColumn name : names) {
            g.writeStartObject();
            g.writeStringProperty("tag", name.tag());
            g.writeStringProperty("key", name.key());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeRaw('\n');
        // not flushed: a query that fails before its first block is still answered with its problem alone
    }

    @Override
    public void row(JsonGenerator g, Row row) {
        block.add(row);
        for (QueryColumn name : names) {
            blockBytes += size(row.get(name.index()));
        }
        if (block.size() == BLOCK || blockBytes >= BLOCK_BYTES) {
            writeBlock(g);
            g.flush();
        }
    }

    /** About the bytes {@code value} takes in a block: the long ones are strings and JSON text. */
    private static int size(Object value) {
        return switch (value) {
            case UndecodedString string -> string.utf8().length;
            case UndecodedJson json -> json.utf8().length;
            case String s -> s.length();
            case null, default -> 8;
        };
    }

    @Override
    public void end(JsonGenerator g) {
        if (!block.isEmpty()) {
            writeBlock(g);
        }
    }

    private void writeBlock(JsonGenerator g) {
        g.writeStartArray();
        for (QueryColumn name : names) {
            if (rawStrings && stringsOnly(name)) {
                g.writeStartObject();
                g.writeName("utf8");
                g.writeStartArray();
                for (Row row : block) {
                    byte[] utf8 = utf8(row.get(name.index()));
                    if (utf8 == null) {
                        g.writeNull();
                    } else {
                        g.writeNumber(utf8.length);
                        strings.add(utf8);
                    }
                }
                g.writeEndArray();
                g.writeEndObject();
                continue;
            }
            g.writeStartArray();
            for (Row row : block) {
                RowJson.cell(g, name, row.get(name.index()));
            }
            g.writeEndArray();
        }
        g.writeEndArray();
        g.writeRaw('\n');
        for (byte[] utf8 : strings) {
            g.writeRaw(new RawJson(utf8));
        }
        strings.clear();
        block.clear();
        blockBytes = 0;
    }

    private boolean stringsOnly(QueryColumn name) {
        boolean any = false;
        for (Row row : block) {
            Object value = row.get(name.index());
            if (value instanceof String || value instanceof UndecodedString) {
                any = true;
            } else if (value != null && !isNull(value)) {
                return false;
            }
        }
        return any;
    }

    /** A JSON null, which a reader reads as a null like a missing key's. */
    private static boolean isNull(Object value) {
        return value instanceof UndecodedJson json && Arrays.equals(json.utf8(), NULL);
    }

    private static byte[] utf8(Object value) {
        return switch (value) {
            case String s -> s.getBytes(StandardCharsets.UTF_8);
            case UndecodedString string -> string.utf8();
            // JSON's null is null
            case null, default -> null;
        };
    }
}
