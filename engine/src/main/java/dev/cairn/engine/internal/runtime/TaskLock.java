package dev.cairn.engine.internal.runtime;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;

import dev.cairn.engine.internal.state.ProcessRow;
import dev.cairn.engine.internal.state.ProcessTable;
import dev.cairn.engine.internal.state.Task;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.ProcessNode;

/**
 * What locking a task's process row found, in the step's transaction: the process to step, or why the
 * task must not run. The row lock is what makes a step run once: a redelivered or duplicated task
 * waits for the step that holds it, then finds that step committed and is skipped.
 */
sealed interface TaskLock {

    /** A locked process row with its node, in a transaction that stores as the process's user. */
    record Locked(ProcessRow row, ProcessNode self, GraphTransaction g) implements TaskLock {}

    record Skip(String why) implements TaskLock {}

    static TaskLock take(Connection c, GraphStore graph, Task task) throws SQLException {
        Optional<ProcessRow> locked = ProcessTable.lock(c, task.processId());
        String skip = skipReason(locked, task);
        if (skip != null) {
            return new Skip(skip);
        }
        GraphTransaction g = graph.inTransaction(c);
        ProcessNode self = (ProcessNode) g.load(task.processId());
        return new Locked(locked.get(), self, g.asUser(self.userId()));
    }

    /** Why a task must not run (gone, terminated, a step already run, paused), or null when it must. */
    private static String skipReason(Optional<ProcessRow> locked, Task task) {
        if (locked.isEmpty()) {
            return "process " + task.processId() + " does not exist (deleted?)";
        }
        ProcessRow row = locked.get();
        if (row.state().isTerminal()) {
            return "process " + row.nodeId() + " is " + row.state().dbValue();
        }
        if (row.step() != task.step()) {
            return "process " + row.nodeId() + " is at step " + row.step() + "; step " + task.step() + " ran already";
        }
        if (row.paused()) {
            return "process " + row.nodeId() + " is paused";
        }
        return null;
    }
}
