package dev.cairn.storage.query;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;

/**
 * The rows of a query as they are read, from a {@link CellSource}: a server-side cursor, where the
 * driver fetches {@code fetchSize} rows at a time inside a transaction and never holds the whole
 * result, or a COPY's stream. Close it (try-with-resources) to end the read and give the connection
 * back.
 * <p>
 * With a decoding executor, rows are taken off the wire in batches on the calling thread and
 * their JSON is decoded on the executor while the next batches are fetched; the calling thread
 * decodes a batch itself when no worker has started it. A bounded number of batches is in flight.
 */
final class ResultStream implements Iterator<Row>, AutoCloseable {

    /** Rows a batch holds at most: fewer where they pass {@link #BATCH_BYTES}. */
    static final int BATCH = 256;
    /** The bytes of cells ({@link RowReader#bytes}) at which a batch of large rows ends before {@link #BATCH}. */
    static final long BATCH_BYTES = 4L << 20;

    private static final int IN_FLIGHT = 4;

    private final Connection connection;
    private final CellSource source;
    private final RowReader reader;
    private final Executor decoder;
    private final ArrayDeque<FutureTask<List<Row>>> pending = new ArrayDeque<>();
    private Iterator<Row> current = Collections.emptyIterator();
    private boolean exhausted;
    private boolean closed;

    ResultStream(Connection connection, CellSource source, RowReader reader, Executor decoder) {
        this.connection = connection;
        this.source = source;
        this.reader = reader;
        this.decoder = reader.decodesJson() ? decoder : null;
    }

    /** Whether rows hold JSON values (a row may be several KiB). */
    boolean holdsJson() {
        return reader.holdsJson();
    }

    @Override
    public boolean hasNext() {
        while (!current.hasNext()) {
            if (closed) {
                return false;
            }
            fill();
            FutureTask<List<Row>> next = pending.poll();
            if (next == null) {
                return false;
            }
            next.run(); // decodes here unless a worker already has it
            current = await(next).iterator();
        }
        return true;
    }

    @Override
    public Row next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more rows");
        }
        return current.next();
    }

    private void fill() {
        int depth = decoder == null ? 1 : IN_FLIGHT;
        while (!exhausted && pending.size() < depth) {
            Batch batch = fetchBatch();
            if (batch.cells().isEmpty()) {
                break;
            }
            FutureTask<List<Row>> task = new FutureTask<>(() -> decode(batch));
            pending.add(task);
            if (decoder != null) {
                decoder.execute(task);
            }
        }
    }

    /** The cells of a batch's rows, and the bytes of each ({@link RowReader#bytes}), counted once. */
    private record Batch(List<Object[]> cells, long[] bytes) {}

    private Batch fetchBatch() {
        List<Object[]> cells = new ArrayList<>(BATCH);
        long[] sizes = new long[BATCH];
        long bytes = 0;
        try {
            while (cells.size() < BATCH && bytes < BATCH_BYTES) {
                Object[] row = source.next();
                if (row == null) {
                    exhausted = true;
                    break;
                }
                sizes[cells.size()] = RowReader.bytes(row);
                bytes += sizes[cells.size()];
                cells.add(row);
            }
        } catch (SQLException e) {
            close();
            // as GraphQuery.failed: a value the query could not use as it asked (class 22) is the query's fault,
            // met here when a cursor reaches the row that holds it
            Optional<InvalidQueryException> refused = InvalidQueryException.refusedValue(e);
            if (refused.isPresent()) {
                throw refused.get();
            }
            throw new QueryFailedException("reading query results failed: " + e.getMessage(), e);
        }
        return new Batch(cells, sizes);
    }

    private List<Row> decode(Batch batch) {
        List<Row> rows = new ArrayList<>(batch.cells().size());
        for (int i = 0; i < batch.cells().size(); i++) {
            rows.add(reader.decode(batch.cells().get(i), batch.bytes()[i]));
        }
        return rows;
    }

    private List<Row> await(FutureTask<List<Row>> task) {
        try {
            return task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new QueryFailedException("interrupted while decoding query results", e);
        } catch (ExecutionException e) {
            close();
            throw new QueryFailedException(
                    "decoding query results failed: " + e.getCause().getMessage(), e.getCause());
        }
    }

    /** Ends the read (and a cursor's read-only transaction) and returns the connection. Safe to call twice. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        pending.forEach(t -> t.cancel(false));
        pending.clear();
        QueryFailedException failure = null;
        try (connection;
                source) {
            if (!connection.getAutoCommit()) {
                connection.rollback();
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            failure = new QueryFailedException("closing the query's connection failed: " + e.getMessage(), e);
        }
        if (failure != null) {
            throw failure;
        }
    }
}
