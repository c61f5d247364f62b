package dev.cairn.storage.archive.aiida;

import java.io.InputStream;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import tools.jackson.databind.node.ObjectNode;

import dev.cairn.storage.archive.InvalidArchiveException;

/**
 * One part's rows as newline-delimited JSON, produced from a database cursor as the stream is read:
 * one row at a time in memory, however many rows the part has.
 */
final class RowStream extends InputStream {

    /** Turns the cursor's current row into Cairn's row, or fails naming it. */
    interface Mapper {
        ObjectNode row(ResultSet r) throws SQLException;
    }

    private final Statement statement;
    private final ResultSet cursor;
    private final Mapper mapper;
    private final String where;
    private byte[] line = new byte[0];
    private int at;
    private boolean ended;
    private long rows;

    RowStream(Statement statement, ResultSet cursor, Mapper mapper, String where) {
        this.statement = statement;
        this.cursor = cursor;
        this.mapper = mapper;
        this.where = where;
    }

    /** Rows produced so far. */
    long rows() {
        return rows;
    }

    @Override
    public int read() {
        if (!fill()) {
            return -1;
        }
        return line[at++] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        if (!fill()) {
            return -1;
        }
        int n = Math.min(len, line.length - at);
        System.arraycopy(line, at, b, off, n);
        at += n;
        return n;
    }

    private boolean fill() {
        if (at < line.length) {
            return true;
        }
        if (ended) {
            return false;
        }
        try {
            if (!cursor.next()) {
                ended = true;
                return false;
            }
            byte[] json = AiidaJson.MAPPER.writeValueAsBytes(mapper.row(cursor));
            line = new byte[json.length + 1];
            System.arraycopy(json, 0, line, 0, json.length);
            line[json.length] = '\n';
            at = 0;
            rows++;
            return true;
        } catch (SQLException e) {
            throw new InvalidArchiveException(where + " cannot be read: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        ended = true;
        try {
            statement.close();
        } catch (SQLException e) {
            // a read-only cursor: nothing was written that closing could lose
        }
    }
}
