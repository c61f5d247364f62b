package dev.cairn.storage.query;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * The cells of a statement's rows, read from its result set: a server-side cursor when it has a fetch size.
 * <p>
 * A cursor's fetches are bounded by bytes as well as rows, since the driver holds a whole fetch in memory and
 * a document may be megabytes: the first fetch takes a few rows ({@link #FIRST_FETCH}), and each next one as
 * many as {@link #FETCH_BYTES} holds at the mean size of the last fetch's rows, at most the fetch size asked
 * for: the last fetch, not all so far, so that a read whose rows grow (in the order of their making, say)
 * follows them.
 */
final class CursorCells implements CellSource {

    /** The rows of a cursor's first fetch, whose sizes are not known yet: at most the fetch size asked for. */
    static final int FIRST_FETCH = 8;
    /** The bytes of cells ({@link RowReader#bytes}) a fetch after the first is sized to hold. */
    static final long FETCH_BYTES = 8L << 20;

    private final PreparedStatement statement;
    private final ResultSet resultSet;
    private final RowReader reader;
    private final int largestFetch;
    private int leftInFetch;
    private int rowsOfFetch;
    private long bytesOfFetch;

    private CursorCells(
            PreparedStatement statement, ResultSet resultSet, RowReader reader, int firstFetch, int largestFetch) {
        this.statement = statement;
        this.resultSet = resultSet;
        this.reader = reader;
        this.largestFetch = largestFetch;
        this.leftInFetch = firstFetch;
    }

    /** The rows of {@code resultSet}, in the fetches its own fetch size makes (all at once without a cursor). */
    CursorCells(PreparedStatement statement, ResultSet resultSet, RowReader reader) {
        this(statement, resultSet, reader, 0, 0);
    }

    /**
     * The rows of {@code statement} (on a connection in a transaction) through a cursor whose fetches take at
     * most {@code largestFetch} rows, fewer where they are large.
     */
    static CursorCells fetched(PreparedStatement statement, RowReader reader, int largestFetch) throws SQLException {
        int first = Math.min(FIRST_FETCH, largestFetch);
        statement.setFetchSize(first);
        return new CursorCells(statement, statement.executeQuery(), reader, first, largestFetch);
    }

    @Override
    public Object[] next() throws SQLException {
        if (largestFetch > 0 && leftInFetch == 0) {
            // the driver has handed out its last fetch: size the next by what that one's rows took
            long mean = Math.max(1, bytesOfFetch / Math.max(1, rowsOfFetch));
            leftInFetch = (int) Math.clamp(FETCH_BYTES / mean, 1, largestFetch);
            resultSet.setFetchSize(leftInFetch);
            rowsOfFetch = 0;
            bytesOfFetch = 0;
        }
        if (!resultSet.next()) {
            return null;
        }
        Object[] cells = reader.raw(resultSet);
        if (largestFetch > 0) {
            leftInFetch--;
            rowsOfFetch++;
            bytesOfFetch += RowReader.bytes(cells);
        }
        return cells;
    }

    @Override
    public void close() throws SQLException {
        try (statement;
                resultSet) {
            // both closed, the result set first
        }
    }
}
