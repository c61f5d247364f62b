package dev.cairn.engine.worker;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;

import dev.cairn.engine.internal.logging.RecurringFailureLog;
import dev.cairn.engine.internal.state.Outbox;
import dev.cairn.engine.internal.state.ProcessTable;
import dev.cairn.engine.internal.state.Task;
import dev.cairn.engine.internal.state.TaskSink;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Transactions;

/**
 * Makes sure every committed task reaches the broker, whatever happened to the worker that
 * committed it. Each run: deletes the outbox rows this worker published; publishes rows
 * older than {@code outboxAge} (their worker died or lost the broker after committing);
 * and, at most one relay at a time, re-sends the task of any live process that has been
 * due for longer than {@code sweepAfter} without one, the last resort should a task be
 * lost at the broker. Duplicates are harmless: a task for a step already run is skipped.
 */
public final class OutboxRelay {

    private static final Logger LOG = System.getLogger(OutboxRelay.class.getName());
    /** Any constant shared by all workers: the advisory lock that lets one sweeper run at a time. */
    private static final long SWEEP_LOCK = 0x636169726e5357L;

    public record Settings(Duration interval, Duration outboxAge, Duration sweepAfter) {
        public static Settings defaults() {
            return new Settings(Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofMinutes(10));
        }
    }

    private final Database database;
    private final TaskSink sink;
    private final Queue<Long> published;
    private final Settings settings;
    // a pass runs each second: while the database or broker is away, say so once a minute
    private final RecurringFailureLog failures = new RecurringFailureLog(LOG, Level.WARNING, Duration.ofMinutes(1));
    private long lastSweep = System.nanoTime();

    OutboxRelay(Database database, TaskSink sink, Queue<Long> published, Settings settings) {
        this.database = database;
        this.sink = sink;
        this.published = published;
        this.settings = settings;
    }

    /** One pass; never throws (a failed pass is tried again at the next). */
    void runOnce() {
        try {
            forgetPublished();
            relayStale();
            if (System.nanoTime() - lastSweep > settings.sweepAfter().toNanos() / 2) {
                lastSweep = System.nanoTime();
                sweep();
            }
            failures.succeeded("the outbox relay works again");
        } catch (SQLException | RuntimeException e) {
            failures.failed("outbox relay pass failed: " + e.getMessage());
        }
    }

    private void forgetPublished() throws SQLException {
        List<Long> ids = new ArrayList<>();
        for (Long id; (id = published.poll()) != null; ) {
            ids.add(id);
        }
        if (ids.isEmpty()) {
            return;
        }
        try (Connection c = database.connection()) {
            Outbox.remove(c, ids);
        } catch (SQLException e) {
            published.addAll(ids);
            throw e;
        }
    }

    private void relayStale() throws SQLException {
        Transactions.run(database, c -> {
            List<Task> tasks = Outbox.claimStale(c, settings.outboxAge(), 1000);
            if (!tasks.isEmpty()) {
                sink.send(tasks);
                LOG.log(Level.INFO, "relayed {0} task(s) left in the outbox", tasks.size());
            }
            return null;
        });
    }

    private void sweep() throws SQLException {
        Transactions.run(database, c -> {
            try (PreparedStatement lock = c.prepareStatement("SELECT pg_try_advisory_xact_lock(?)")) {
                lock.setLong(1, SWEEP_LOCK);
                try (ResultSet rs = lock.executeQuery()) {
                    rs.next();
                    if (!rs.getBoolean(1)) {
                        return null;
                    }
                }
            }
            List<Task> due = ProcessTable.claimDue(c, settings.sweepAfter());
            if (!due.isEmpty()) {
                sink.send(due);
                LOG.log(
                        Level.WARNING,
                        "re-sent the tasks of {0} process(es) due for over {1}",
                        due.size(),
                        settings.sweepAfter());
            }
            return null;
        });
    }
}
