package dev.cairn.engine.internal.state;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

import dev.cairn.engine.events.StateChanged;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.ProcessNode;

/**
 * The one writer of a process's state. Every move is checked against the transition table
 * ({@link ProcessState#next()}) and written to the node's {@code process_state} attribute and
 * to the process row together, in the caller's transaction; the paused flag and the status line
 * go the same way. An architecture test keeps every other class of the engine from writing them.
 * The moves made are counted ({@link #counts()}), for metrics and for the test that holds the
 * suite to exercising every move of the table.
 */
public final class ProcessStates {

    private final TransitionCounts counts = new TransitionCounts();

    public TransitionCounts counts() {
        return counts;
    }

    /** Marks a new process node, not stored yet, created. */
    public static void created(ProcessNode node) {
        node.setProcessState(ProcessState.CREATED.dbValue());
    }

    /**
     * A process that ran to its end inside its caller's step, before it was stored (a called
     * function, a child taken from the cache): finished and sealed. It has no process row.
     */
    public void finishedBeforeStore(ProcessNode node) {
        move(ProcessState.fromDbValue(node.processState()), ProcessState.FINISHED);
        node.setProcessState(ProcessState.FINISHED.dbValue());
        node.sealBeforeStore();
    }

    /**
     * A process that failed before it was stored (a function a client ran and recorded): excepted,
     * with what it raised, and sealed. It has no process row.
     */
    public void exceptedBeforeStore(ProcessNode node, String exception) {
        move(ProcessState.fromDbValue(node.processState()), ProcessState.EXCEPTED);
        node.setProcessState(ProcessState.EXCEPTED.dbValue());
        node.setException(exception);
        node.sealBeforeStore();
    }

    /**
     * Ends a step with the process waiting: for {@code awaiting} children, or for its
     * scheduler job when that is 0; it resumes from {@code next}.
     */
    public StateChanged waiting(
            Connection c,
            GraphTransaction g,
            ProcessRow row,
            ProcessNode node,
            String status,
            int awaiting,
            Checkpoint next)
            throws SQLException {
        move(row.state(), ProcessState.WAITING);
        node.setProcessState(ProcessState.WAITING.dbValue());
        node.setProcessStatus(status);
        g.saveState(node, false);
        ProcessTable.Event event = ProcessTable.endStep(c, row, ProcessState.WAITING, null, awaiting, next);
        return change(event, row, node, ProcessState.WAITING);
    }

    /** How a process ended: the change to broadcast, and its caller's continue task when it is due. */
    public record Ended(StateChanged change, Optional<Task> wake) {}

    /**
     * Ends a process in {@code terminal} (its exit status set on the node before): the node is
     * sealed, the row takes its last step, and a caller waiting for it is told; when it was the
     * last child the caller waited for, the caller's continue task is returned.
     */
    public Ended end(Connection c, GraphTransaction g, ProcessRow row, ProcessNode node, ProcessState terminal)
            throws SQLException {
        if (!terminal.isTerminal()) {
            throw new IllegalArgumentException(terminal + " does not end a process");
        }
        move(row.state(), terminal);
        node.setProcessState(terminal.dbValue());
        node.setProcessStatus(terminal == ProcessState.KILLED ? "Killed" : null);
        g.saveState(node, true);
        ProcessTable.Event event = ProcessTable.endStep(c, row, terminal, node.exitStatus(), 0, Checkpoint.NONE);
        Optional<Task> wake = row.parentId() != null && row.awaited()
                ? ProcessTable.childTerminated(c, row.parentId())
                : Optional.empty();
        return new Ended(change(event, row, node, terminal), wake);
    }

    /** Pauses or plays a live process: the row's flag and the node's, with the status line to show. */
    public void setPaused(Connection c, GraphTransaction g, ProcessNode node, boolean paused, String status)
            throws SQLException {
        ProcessTable.setPaused(c, node.id(), paused);
        node.setPaused(paused);
        node.setProcessStatus(status);
        g.saveState(node, false);
    }

    /** Says what a live process is doing (a job step about to be tried again), without a move. */
    public void setStatus(GraphTransaction g, ProcessNode node, String status) {
        node.setProcessStatus(status);
        g.saveState(node, false);
    }

    private void move(ProcessState from, ProcessState to) {
        from.moveTo(to);
        counts.count(from, to);
    }

    private static StateChanged change(ProcessTable.Event event, ProcessRow row, ProcessNode node, ProcessState to) {
        return new StateChanged(
                event.id(),
                row.nodeId(),
                node.uuid(),
                row.parentId(),
                row.entryPoint(),
                row.state(),
                to,
                node.exitStatus(),
                event.time(),
                null);
    }
}
