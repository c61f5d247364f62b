package dev.cairn.storage.query;

import java.sql.SQLException;

/** Where a {@link ResultStream} takes the cells of its rows from: a cursor's result set or a COPY's stream. */
interface CellSource extends AutoCloseable {

    /** The next row's cells, one a column as {@link RowReader#raw} gives them, or {@code null} after the last. */
    Object[] next() throws SQLException;

    /** Ends the read, whether or not every row was taken; the connection stays usable. */
    @Override
    void close() throws SQLException;
}
