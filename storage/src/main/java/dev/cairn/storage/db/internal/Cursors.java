package dev.cairn.storage.db.internal;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Query results as streams read through a server-side cursor: the driver fetches
 * {@value #FETCH} rows at a time (it does so only inside a transaction), so a result of
 * millions of rows never sits in memory. Closing the stream closes the statement.
 */
public final class Cursors {

    public static final int FETCH = 10_000;

    private Cursors() {}

    /** Reads one row into a value. */
    public interface Row<T> {
        T read(ResultSet r) throws SQLException;
    }

    /** The first column of each row, as longs. */
    public static LongStream longs(PreparedStatement statement) throws SQLException {
        return rows(statement, r -> r.getLong(1)).mapToLong(Long::longValue);
    }

    /** Executes {@code statement} (parameters already bound) and streams its rows; takes ownership of it. */
    public static <T> Stream<T> rows(PreparedStatement statement, Row<T> row) throws SQLException {
        ResultSet result;
        try {
            statement.setFetchSize(FETCH);
            result = statement.executeQuery();
        } catch (SQLException e) {
            statement.close();
            throw e;
        }
        Spliterator<T> rows =
                new Spliterators.AbstractSpliterator<>(Long.MAX_VALUE, Spliterator.ORDERED | Spliterator.NONNULL) {
                    @Override
                    public boolean tryAdvance(Consumer<? super T> action) {
                        try {
                            if (!result.next()) {
                                return false;
                            }
                            action.accept(row.read(result));
                            return true;
                        } catch (SQLException e) {
                            throw new IllegalStateException("reading a query result failed: " + e.getMessage(), e);
                        }
                    }
                };
        return StreamSupport.stream(rows, false).onClose(() -> {
            try {
                statement.close();
            } catch (SQLException e) {
                throw new IllegalStateException("closing a query cursor failed: " + e.getMessage(), e);
            }
        });
    }
}
