package dev.cairn.engine.internal.calcjob;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

import dev.cairn.engine.internal.state.EngineLog;
import dev.cairn.engine.internal.state.Outbox;
import dev.cairn.engine.internal.state.ProcessRow;
import dev.cairn.engine.internal.state.ProcessStates;
import dev.cairn.engine.internal.state.ProcessTable;
import dev.cairn.engine.internal.state.Task;
import dev.cairn.storage.errors.UnavailableException;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.LogLevel;
import dev.cairn.storage.graph.ProcessNode;

/**
 * What happens when a calculation job cannot reach its computer or its scheduler fails: the
 * step is rolled back and tried again after a backoff with jitter (a delayed task in the
 * outbox, so no worker slot waits for it); after the computer's last attempt the process is
 * paused with a report saying why, and {@code play} tries again. The calculation does not
 * end EXCEPTED for a cluster that is down for an hour.
 */
public final class JobFailures {

    private JobFailures() {}

    /** A calculation job's step failed at its transport or scheduler; carries what it was doing. */
    public static final class Failure extends UnavailableException {
        final String doing;
        final transient ComputerSettings settings;

        Failure(String doing, ComputerSettings settings, RuntimeException cause) {
            super(doing + " failed: " + cause.getMessage(), cause);
            this.doing = doing;
            this.settings = settings;
        }
    }

    /**
     * Records the failed attempt of a step (rolled back before) of the process of {@code row},
     * locked in {@code c}'s transaction: a retry later, or the pause.
     */
    public static void record(
            Connection c, GraphTransaction g, ProcessStates states, ProcessRow row, ProcessNode node, Failure failure)
            throws SQLException {
        int attempts = failure.settings.retry().attempts();
        int failed = ProcessTable.countJobFailure(c, row.nodeId());
        String cause = describe(failure.getCause());
        if (failed < attempts) {
            Duration wait = failure.settings.retry().delay(failed - 1);
            Outbox.addDelayed(c, new Task(row.nodeId(), row.step()), wait);
            String status = failure.doing + " failed (attempt " + failed + " of " + attempts + "), trying again in "
                    + seconds(wait) + ": " + cause;
            states.setStatus(g, node, status);
            g.appendLogs(List.of(EngineLog.of(node.id(), LogLevel.WARNING, status)));
            return;
        }
        pause(c, g, states, node, failure.doing + " failed " + attempts + " times; the last time: " + cause);
    }

    /** Pauses a process the engine cannot move on, with a report of why; {@code play} tries again. */
    static void pause(Connection c, GraphTransaction g, ProcessStates states, ProcessNode node, String why)
            throws SQLException {
        String status = "Paused: " + why + ". Play the process to try again.";
        states.setPaused(c, g, node, true, status);
        g.appendLogs(List.of(EngineLog.of(node.id(), LogLevel.REPORT, status)));
    }

    static String describe(Throwable t) {
        String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return message.length() > 500 ? message.substring(0, 500) + "…" : message;
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }
}
