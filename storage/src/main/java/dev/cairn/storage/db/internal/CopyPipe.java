package dev.cairn.storage.db.internal;

import java.sql.SQLException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

import org.postgresql.copy.CopyIn;

/**
 * A COPY whose rows are made on a thread of their own while the caller's thread sends the
 * finished chunks, so that making rows (hashing, writing JSON) overlaps the server's work
 * on the previous chunk instead of alternating with it. A failure on either side ends both
 * and cancels the COPY.
 */
public final class CopyPipe {

    /** Makes the rows; runs on the pipe's thread. */
    public interface Producer {
        void produce(CopyRows rows) throws Exception;
    }

    private record Chunk(byte[] bytes, int length, Throwable failure) {
        static final Chunk END = new Chunk(null, 0, null);
    }

    private static final int CHUNKS_AHEAD = 4;

    private CopyPipe() {}

    /** Runs the COPY; returns the rows the server took. */
    public static long run(CopyIn copy, Producer producer) throws SQLException {
        BlockingQueue<Chunk> queue = new ArrayBlockingQueue<>(CHUNKS_AHEAD);
        Thread thread = Thread.ofPlatform().name("cairn-copy-rows").daemon().start(() -> {
            try {
                CopyRows rows = new CopyRows((chunk, length) -> {
                    put(queue, new Chunk(chunk, length, null));
                    return true;
                });
                producer.produce(rows);
                rows.flush();
                put(queue, Chunk.END);
            } catch (Throwable e) {
                queue.clear();
                put(queue, new Chunk(null, 0, e));
            }
        });
        try {
            for (Chunk chunk = take(queue); chunk != Chunk.END; chunk = take(queue)) {
                if (chunk.failure() != null) {
                    throw chunk.failure();
                }
                copy.writeToCopy(chunk.bytes(), 0, chunk.length());
            }
            return copy.endCopy();
        } catch (Throwable e) {
            thread.interrupt();
            queue.clear();
            cancel(copy);
            switch (e) {
                case SQLException sql -> throw sql;
                case RuntimeException runtime -> throw runtime;
                case Error error -> throw error;
                default -> throw new IllegalStateException("making COPY rows failed: " + e.getMessage(), e);
            }
        }
    }

    private static void put(BlockingQueue<Chunk> queue, Chunk chunk) {
        try {
            queue.put(chunk);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("COPY abandoned", e);
        }
    }

    private static Chunk take(BlockingQueue<Chunk> queue) {
        try {
            return queue.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending COPY rows", e);
        }
    }

    private static void cancel(CopyIn copy) {
        try {
            if (copy.isActive()) {
                copy.cancelCopy();
            }
        } catch (SQLException ignored) {
            // the transaction rolls back either way
        }
    }
}
