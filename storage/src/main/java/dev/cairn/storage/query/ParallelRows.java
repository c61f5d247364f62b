package dev.cairn.storage.query;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Rows of several {@link ResultStream}s read at once, each on a thread of its own, handed
 * out in batches as they arrive (in no particular order; one part's in its order). Closing it
 * closes every part.
 */
final class ParallelRows implements Iterator<Row>, AutoCloseable {

    /** Rows a batch holds at most: fewer where they pass {@link #BATCH_BYTES}. */
    static final int BATCH = 512;
    /**
     * The bytes of rows ({@link Row#bytes}) at which a batch of large rows ends before {@link #BATCH}, so
     * that what is read ahead is a few of these however large the documents: 512 rows of 1 MiB would be
     * half a GiB a batch.
     */
    static final long BATCH_BYTES = 4L << 20;

    private static final List<Row> DONE = List.of();

    private final List<ResultStream> parts;
    private final List<Thread> readers = new ArrayList<>();
    private final BlockingQueue<Object> batches;
    private Iterator<Row> current = List.<Row>of().iterator();
    private int finished;
    private volatile boolean closed;

    ParallelRows(List<ResultStream> parts) {
        this(parts, 16);
    }

    private ParallelRows(List<ResultStream> parts, int batchesAhead) {
        this.parts = parts;
        this.batches = new ArrayBlockingQueue<>(batchesAhead);
        for (ResultStream part : parts) {
            readers.add(Thread.ofPlatform().name("cairn-query-part").daemon().start(() -> read(part)));
        }
    }

    /**
     * The rows of {@code cursor} in its order, read on a thread of their own up to two batches
     * ahead of the caller: while the caller writes one batch, the database makes the next, where
     * on one thread each would wait for the other.
     */
    static ParallelRows readAhead(ResultStream cursor) {
        return new ParallelRows(List.of(cursor), 2);
    }

    private void read(ResultStream part) {
        try {
            List<Row> batch = new ArrayList<>(BATCH);
            long bytes = 0;
            while (!closed && part.hasNext()) {
                Row row = part.next();
                batch.add(row);
                bytes += row.bytes();
                if (batch.size() == BATCH || bytes >= BATCH_BYTES) {
                    batches.put(batch);
                    batch = new ArrayList<>(BATCH);
                    bytes = 0;
                }
            }
            if (!batch.isEmpty()) {
                batches.put(batch);
            }
            batches.put(DONE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            // an Error too: the caller waits on the queue, and a reader that died silently would leave it waiting
            batches.clear();
            batches.offer(e);
        }
    }

    @Override
    public boolean hasNext() {
        while (!current.hasNext()) {
            if (finished == parts.size()) {
                return false;
            }
            Object next;
            try {
                next = batches.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new QueryFailedException("interrupted while reading the query's parts", e);
            }
            if (next instanceof RuntimeException failure) {
                close();
                throw failure;
            }
            if (next instanceof Error error) {
                close();
                throw error;
            }
            @SuppressWarnings("unchecked")
            List<Row> batch = (List<Row>) next;
            if (batch == DONE) {
                finished++;
            } else {
                current = batch.iterator();
            }
        }
        return true;
    }

    @Override
    public Row next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        return current.next();
    }

    @Override
    public void close() {
        closed = true;
        for (Thread t : readers) {
            t.interrupt();
        }
        batches.clear();
        for (Thread t : readers) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        for (ResultStream part : parts) {
            part.close();
        }
    }
}
