package dev.cairn.engine.control;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.cairn.engine.broker.Broadcasts;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.engine.runtime.ComputerAccess;
import dev.cairn.engine.runtime.Outbox;
import dev.cairn.engine.runtime.ProcessRow;
import dev.cairn.engine.runtime.ProcessTable;
import dev.cairn.engine.runtime.StateChange;
import dev.cairn.engine.runtime.Task;
import dev.cairn.engine.runtime.TaskSink;
import dev.cairn.errors.ConflictException;
import dev.cairn.errors.NotFoundException;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerStore;

/**
 * Pause, play and kill. Each is written to the database under the process's row lock
 * first, and only then signalled, so it works whether a worker holds the process, its task
 * sits in the queue, or nothing holds it at all. A step running when the action arrives
 * finishes first (kill interrupts it); the next task of a paused or killed process is
 * skipped. Kill cascades to the live children.
 */
public final class ProcessControl {

    private static final Logger LOG = System.getLogger(ProcessControl.class.getName());

    private final Database database;
    private final GraphStore graph;
    private final TaskSink sink;
    private final Broadcasts broadcasts;

    /** @param broadcasts where kill signals and state changes go; null without a broker */
    public ProcessControl(Database database, GraphStore graph, TaskSink sink, Broadcasts broadcasts) {
        this.database = database;
        this.graph = graph;
        this.sink = sink;
        this.broadcasts = broadcasts;
    }

    /** Pauses a live process: it finishes its current step, then does not progress until played. */
    public void pause(long processId) {
        inLock(processId, "pause", (c, g, row, node) -> {
            ProcessTable.setPaused(c, processId, true);
            node.setPaused(true);
            node.setProcessStatus("Paused");
            g.saveState(node, false);
            return List.of();
        });
    }

    /** Lets a paused process go on; its due task, if any, is sent again. */
    public void play(long processId) {
        List<Long> outboxIds = new ArrayList<>();
        List<Task> tasks = inLock(processId, "play", (c, g, row, node) -> {
            ProcessTable.setPaused(c, processId, false);
            node.setPaused(false);
            node.setProcessStatus(
                    row.state() == ProcessState.WAITING && row.awaiting() > 0 ? "Waiting for child processes" : null);
            g.saveState(node, false);
            List<Task> due = row.runnable() ? List.of(new Task(processId, row.step())) : List.of();
            outboxIds.addAll(Outbox.add(c, due));
            return due;
        });
        send(tasks, outboxIds);
    }

    /**
     * Kills a live process and then, one by one, its live descendants. Returns the ids
     * killed; a process already terminated is left as it is.
     */
    public List<Long> kill(long processId) {
        List<Long> killed = new ArrayList<>();
        List<Long> pending = new ArrayList<>(List.of(processId));
        while (!pending.isEmpty()) {
            long id = pending.removeFirst();
            signal(id);
            Killed k = killOne(id, id == processId);
            if (k.killed) {
                killed.add(id);
            }
            pending.addAll(k.children);
        }
        return killed;
    }

    private record Killed(boolean killed, List<Long> children) {}

    /** A killed process's scheduler job, cancelled once the kill has committed. */
    private record WatchedJob(long computerId, String jobId) {}

    /** What one kill's transaction decided, acted on after it commits. */
    private static final class KillOutcome {
        final List<Long> children = new ArrayList<>();
        final List<Long> outboxIds = new ArrayList<>();
        final List<WatchedJob> jobs = new ArrayList<>();
        boolean killed;
        StateChange change;
    }

    private Killed killOne(long id, boolean strict) {
        KillOutcome k = new KillOutcome();
        List<Task> tasks = inLock(id, strict ? "kill" : null, (c, g, row, node) -> {
            k.children.addAll(ProcessTable.liveChildren(c, id));
            if (row.state().isTerminal()) {
                // a worker may have ended it KILLED on this kill's signal before the lock came here
                k.killed = row.state() == ProcessState.KILLED;
                return List.of();
            }
            k.jobs.addAll(unwatch(c, id));
            node.setProcessState(ProcessState.KILLED.dbValue());
            node.setProcessStatus("Killed");
            g.saveState(node, true);
            ProcessTable.endStep(c, id, row.step() + 1, ProcessState.KILLED, false, 0, "{}");
            List<Task> wake = new ArrayList<>();
            if (row.parentId() != null && row.awaited()) {
                ProcessTable.childTerminated(c, row.parentId()).ifPresent(wake::add);
            }
            k.outboxIds.addAll(Outbox.add(c, wake));
            k.killed = true;
            k.change = new StateChange(id, row.entryPoint(), row.state(), ProcessState.KILLED, null);
            return wake;
        });
        send(tasks, k.outboxIds);
        if (k.change != null && broadcasts != null) {
            broadcasts.send(k.change.routingKey(), k.change.toMessage());
        }
        for (WatchedJob job : k.jobs) {
            cancel(job);
        }
        return new Killed(k.killed, k.children);
    }

    /** Stops watching the process's scheduler job; returns it when it had one. */
    private static List<WatchedJob> unwatch(Connection c, long id) throws SQLException {
        try (PreparedStatement s =
                c.prepareStatement("DELETE FROM job_watch WHERE node_id = ? RETURNING computer_id, job_id")) {
            s.setLong(1, id);
            try (ResultSet rs = s.executeQuery()) {
                List<WatchedJob> jobs = new ArrayList<>();
                while (rs.next()) {
                    jobs.add(new WatchedJob(rs.getLong(1), rs.getString(2)));
                }
                return jobs;
            }
        }
    }

    /** Cancels a killed job's scheduler job; a failure is reported, the kill stands. */
    private void cancel(WatchedJob job) {
        Computer computer = new ComputerStore(database).get(job.computerId());
        try {
            ComputerAccess.withTransport(database, computer, transport -> {
                ComputerAccess.scheduler(computer).cancel(transport, job.jobId());
                return null;
            });
        } catch (Exception e) {
            LOG.log(
                    Level.WARNING,
                    "cancelling job {0} on {1} failed: {2}",
                    job.jobId(),
                    computer.label(),
                    e.getMessage());
        }
    }

    private void signal(long id) {
        if (broadcasts != null) {
            broadcasts.send("control." + id, Map.of("action", "kill", "process", id));
        }
    }

    private void send(List<Task> tasks, List<Long> outboxIds) {
        if (tasks.isEmpty() || sink == null) {
            return;
        }
        try {
            sink.send(tasks);
            Outbox.forget(database, outboxIds);
        } catch (RuntimeException e) {
            // the outbox rows stay; a relay sends them
        }
    }

    @FunctionalInterface
    private interface Action {
        List<Task> apply(Connection c, GraphTransaction g, ProcessRow row, ProcessNode node) throws SQLException;
    }

    /**
     * Runs {@code action} with the process row locked. {@code verb} non-null: a missing or
     * terminated process is an error naming the verb; null: it is skipped quietly.
     */
    private List<Task> inLock(long id, String verb, Action action) {
        try (Connection c = database.connection()) {
            c.setAutoCommit(false);
            try {
                Optional<ProcessRow> locked = ProcessTable.lock(c, id);
                if (locked.isEmpty()) {
                    c.rollback();
                    if (verb != null) {
                        throw new NotFoundException("cannot " + verb + " process " + id + ": there is no such process");
                    }
                    return List.of();
                }
                ProcessRow row = locked.get();
                GraphTransaction g = graph.inTransaction(c);
                ProcessNode node = (ProcessNode) g.load(id);
                if (row.state().isTerminal() && verb != null && !verb.equals("kill")) {
                    c.rollback();
                    throw new ConflictException("cannot " + verb + " process " + id + ": it is "
                            + row.state().dbValue());
                }
                List<Task> tasks = action.apply(c, g, row, node);
                c.commit();
                return tasks;
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            } finally {
                c.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new StorageException("controlling process " + id, e);
        }
    }
}
