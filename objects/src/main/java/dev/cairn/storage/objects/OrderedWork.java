package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs tasks on a few threads while one consumer takes their results in submission order: the shape of
 * every bulk write, where hashing, compressing or reading files runs in parallel and appending to a pack
 * is sequential. At most {@code window} results wait at a time, which bounds memory.
 */
final class OrderedWork {

    interface Task<T> {
        T call() throws IOException;
    }

    interface Sink<T> {
        void accept(T result) throws IOException;
    }

    private OrderedWork() {}

    /** Runs on as many threads as there are cores (at most four): for work that uses the CPU. */
    static <T> void run(List<Task<T>> tasks, int window, Sink<T> sink) throws IOException {
        run(tasks, Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors())), window, sink);
    }

    /** Runs on {@code threads} threads: for work that mostly waits on the disk. */
    static <T> void run(List<Task<T>> tasks, int threads, int window, Sink<T> sink) throws IOException {
        if (tasks.size() == 1) {
            sink.accept(tasks.get(0).call());
            return;
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "cairn-objects-worker");
            t.setDaemon(true);
            return t;
        });
        try {
            Deque<Future<T>> inFlight = new ArrayDeque<>();
            int next = 0;
            while (next < tasks.size() || !inFlight.isEmpty()) {
                while (next < tasks.size() && inFlight.size() < window) {
                    Task<T> task = tasks.get(next++);
                    inFlight.add(pool.submit(task::call));
                }
                sink.accept(await(inFlight.poll()));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static <T> T await(Future<T> f) throws IOException {
        try {
            return f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a worker");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IOException(e.getCause());
        }
    }
}
