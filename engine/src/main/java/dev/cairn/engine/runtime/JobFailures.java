package dev.cairn.engine.runtime;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.LogEntry;
import dev.cairn.storage.graph.LogLevel;
import dev.cairn.storage.graph.ProcessNode;

/**
 * What happens when a calculation job cannot reach its computer or its scheduler fails: the
 * step is rolled back and tried again after a backoff with jitter (a delayed task in the
 * outbox, so no worker slot waits for it); after the computer's last attempt the process is
 * paused with a report saying why, and {@code play} tries again. The calculation does not
 * end EXCEPTED for a cluster that is down for an hour.
 */
final class JobFailures {

    private JobFailures() {}

    /** A calculation job's step failed at its transport or scheduler; carries what it was doing. */
    static final class Failure extends RuntimeException {
        final String doing;
        final ComputerSettings settings;

        Failure(String doing, ComputerSettings settings, RuntimeException cause) {
            super(doing + " failed: " + cause.getMessage(), cause);
            this.doing = doing;
            this.settings = settings;
        }
    }

    /** Records the failed attempt of {@code task}'s step (rolled back before): a retry later, or the pause. */
    static StepOutcome record(Connection c, GraphTransaction g, Task task, Failure failure) throws SQLException {
        Optional<ProcessRow> locked = ProcessTable.lock(c, task.processId());
        if (locked.isEmpty()
                || locked.get().state().isTerminal()
                || locked.get().step() != task.step()
                || locked.get().paused()) {
            return StepOutcome.skip(
                    "process " + task.processId() + " moved on while its job step failed: " + failure.getMessage());
        }
        ProcessNode node = (ProcessNode) g.load(task.processId());
        int attempts = failure.settings.retry().attempts();
        int failed = ProcessTable.countJobFailure(c, task.processId());
        String cause = describe(failure.getCause());
        if (failed < attempts) {
            Duration wait = failure.settings.retry().delay(failed - 1);
            Outbox.addDelayed(c, task, wait);
            node.setProcessStatus(failure.doing + " failed (attempt " + failed + " of " + attempts
                    + "), trying again in " + seconds(wait) + ": " + cause);
            g.saveState(node, false);
            g.appendLogs(List.of(LogEntry.of(node.id(), LogLevel.WARNING, StepExecutor.LOGGER, node.processStatus())));
            return new StepOutcome(List.of(), List.of(), List.of(), null);
        }
        pause(c, g, node, failure.doing + " failed " + attempts + " times; the last time: " + cause);
        return new StepOutcome(List.of(), List.of(), List.of(), null);
    }

    /** Pauses a process the engine cannot move on, with a report of why; {@code play} tries again. */
    static void pause(Connection c, GraphTransaction g, ProcessNode node, String why) throws SQLException {
        ProcessTable.setPaused(c, node.id(), true);
        node.setPaused(true);
        node.setProcessStatus("Paused: " + why + ". Play the process to try again.");
        g.saveState(node, false);
        g.appendLogs(List.of(LogEntry.of(node.id(), LogLevel.REPORT, StepExecutor.LOGGER, node.processStatus())));
    }

    static String describe(Throwable t) {
        String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
        return message.length() > 500 ? message.substring(0, 500) + "…" : message;
    }

    private static String seconds(Duration d) {
        return String.format(Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }
}
