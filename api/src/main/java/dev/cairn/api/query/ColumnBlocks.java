package dev.cairn.api.query;

import java.util.ArrayList;
import java.util.List;

import tools.jackson.core.JsonGenerator;

import dev.cairn.storage.query.QuerySpec;
import dev.cairn.storage.query.Row;

/**
 * Query rows as columns, for readers that build a table: a first line naming the columns
 * ({@code {"columns": [{"tag": "d", "key": "attributes.energy"}, …]}}), then a line per block of
 * up to {@value #BLOCK} rows, each an array holding one array of values per column, in the
 * header's order. A whole row ({@code *}) is one column of objects. Names are written once, not
 * in every row, and a reader parses a block at once and extends each column by it.
 */
final class ColumnBlocks implements RowLines {

    /** Rows per block: few enough that a reader parses one block while the server reads and sends the next. */
    static final int BLOCK = 1024;

    private final List<QueryColumn> names;
    private final List<Row> block = new ArrayList<>(BLOCK);

    ColumnBlocks(QuerySpec spec) {
        this.names = new RowJson(spec).names();
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
        if (block.size() == BLOCK) {
            writeBlock(g);
            g.flush();
        }
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
            g.writeStartArray();
            for (Row row : block) {
                RowJson.cell(g, name, row.get(name.index()));
            }
            g.writeEndArray();
        }
        g.writeEndArray();
        g.writeRaw('\n');
        block.clear();
    }
}
