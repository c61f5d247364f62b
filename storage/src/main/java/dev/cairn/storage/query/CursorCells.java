package dev.cairn.storage.query;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/** The cells of a statement's rows, read from its result set (a server-side cursor when it has a fetch size). */
final class CursorCells implements CellSource {

    private final PreparedStatement statement;
    private final ResultSet resultSet;
    private final RowReader reader;

    CursorCells(PreparedStatement statement, ResultSet resultSet, RowReader reader) {
        this.statement = statement;
        this.resultSet = resultSet;
        this.reader = reader;
    }

    @Override
    public Object[] next() throws SQLException {
        return resultSet.next() ? reader.raw(resultSet) : null;
    }

    @Override
    public void close() throws SQLException {
        try (statement;
                resultSet) {
            // both closed, the result set first
        }
    }
}
