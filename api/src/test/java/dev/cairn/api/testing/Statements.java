package dev.cairn.api.testing;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Counts the statements a piece of code sends to PostgreSQL: the JDBC driver's own record of each statement
 * it executes (its protocol log, at FINEST), on the calling thread only, so that the server's other work
 * (workers, event relays, the pool's checks) does not count.
 */
public final class Statements {

    /** The driver's class that sends the statements, whose logger notes each {@code Execute} message. */
    private static final Logger DRIVER = Logger.getLogger("org.postgresql.core.v3.QueryExecutorImpl");

    /** What {@code work} returned and how many statements it executed. */
    public record Counted<T>(T result, long statements) {}

    private Statements() {}

    /** Runs {@code work} on this thread and counts the statements it executed. */
    public static synchronized <T> Counted<T> count(Supplier<T> work) {
        long thread = Thread.currentThread().threadId();
        AtomicLong executed = new AtomicLong();
        Handler counter = new Handler() {
            @Override
            public void publish(LogRecord record) {
                String message = record.getMessage();
                if (record.getLongThreadID() == thread && message != null && message.contains("FE=> Execute(")) {
                    executed.incrementAndGet();
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        counter.setLevel(Level.ALL);
        Level level = DRIVER.getLevel();
        boolean parents = DRIVER.getUseParentHandlers();
        DRIVER.addHandler(counter);
        DRIVER.setUseParentHandlers(false);
        DRIVER.setLevel(Level.FINEST);
        try {
            T result = work.get();
            return new Counted<>(result, executed.get());
        } finally {
            DRIVER.setLevel(level);
            DRIVER.setUseParentHandlers(parents);
            DRIVER.removeHandler(counter);
        }
    }
}
