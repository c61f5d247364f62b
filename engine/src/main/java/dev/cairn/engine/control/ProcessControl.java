package dev.cairn.engine.control;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import dev.cairn.engine.events.ControlSignal;
import dev.cairn.engine.events.StateChanged;
import dev.cairn.engine.internal.broker.Broadcasts;
import dev.cairn.engine.internal.calcjob.ComputerAccess;
import dev.cairn.engine.internal.state.EngineLog;
import dev.cairn.engine.internal.state.Outbox;
import dev.cairn.engine.internal.state.ProcessRow;
import dev.cairn.engine.internal.state.ProcessStates;
import dev.cairn.engine.internal.state.ProcessTable;
import dev.cairn.engine.internal.state.Task;
import dev.cairn.engine.internal.state.TaskSink;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.NotFoundException;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.LogLevel;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.graph.computers.Computer;
import dev.cairn.storage.graph.computers.ComputerStore;
import dev.cairn.storage.graph.users.UserStore;
import dev.cairn.storage.visibility.Internal;

/**
 * Pause, play and kill, each done by a user ({@link #forUser}) and recorded in the process's
 * report under that user's email. Each is written to the database under the process's row
 * lock first, and only then signalled, so it works whether a worker holds the process, its
 * task sits in the queue, or nothing holds it at all. A step running when the action arrives
 * finishes first (kill interrupts it); the next task of a paused or killed process is
 * skipped. Kill cascades to the live children.
 */
public final class ProcessControl {

    private static final Logger LOG = System.getLogger(ProcessControl.class.getName());

    private final Database database;
    private final GraphStore graph;
    private final ProcessStates states;
    private final TaskSink sink;
    private final Broadcasts broadcasts;
    private final ComputerAccess access;
    private final String actor;

    /**
     * @param sink       where due tasks go; null without a broker
     * @param broadcasts where kill signals and state changes go; null without a broker
     * @param access     the computers' transports, to cancel a killed job's scheduler job
     */
    @Internal
    public ProcessControl(
            Database database,
            GraphStore graph,
            ProcessStates states,
            TaskSink sink,
            Broadcasts broadcasts,
            ComputerAccess access) {
        this(database, graph, states, sink, broadcasts, access, null);
    }

    private ProcessControl(
            Database database,
            GraphStore graph,
            ProcessStates states,
            TaskSink sink,
            Broadcasts broadcasts,
            ComputerAccess access,
            String actor) {
        this.database = database;
        this.graph = graph;
        this.states = states;
        this.sink = sink;
        this.broadcasts = broadcasts;
        this.access = access;
        this.actor = actor != null
                ? actor
                : new UserStore(database).get(graph.userId()).email();
    }

    /** The same controls, acting for {@code userId}: the report says who paused, played or killed. */
    public ProcessControl forUser(long userId) {
        GraphStore as = graph.forUser(userId);
        return as == graph
                ? this
                : new ProcessControl(
                        database,
                        as,
                        states,
                        sink,
                        broadcasts,
                        access,
                        new UserStore(database).get(userId).email());
    }

    /** Pauses a live process: it finishes its current step, then does not progress until played. */
    public void pause(long processId) {
        inLock(processId, "pause", (c, g, row, node) -> {
            states.setPaused(c, g, node, true, "Paused");
            report(g, processId, "paused by " + actor);
            return List.of();
        });
    }

    /** Lets a paused process go on; its due task, if any, is sent again. */
    public void play(long processId) {
        List<Long> outboxIds = new ArrayList<>();
        List<Task> tasks = inLock(processId, "play", (c, g, row, node) -> {
            String status =
                    row.state() == ProcessState.WAITING && row.awaiting() > 0 ? "Waiting for child processes" : null;
            states.setPaused(c, g, node, false, status);
            report(g, processId, "played by " + actor);
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
        StateChanged change;
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
            report(g, id, "killed by " + actor);
            ProcessStates.Ended ended = states.end(c, g, row, node, ProcessState.KILLED);
            List<Task> wake = ended.wake().map(List::of).orElse(List.of());
            k.outboxIds.addAll(Outbox.add(c, wake));
            k.killed = true;
            k.change = ended.change();
            return wake;
        });
        send(tasks, k.outboxIds);
        if (k.change != null && broadcasts != null) {
            broadcasts.publish(k.change);
        }
        for (WatchedJob job : k.jobs) {
            cancel(job);
        }
        return new Killed(k.killed, k.children);
    }

    private static void report(GraphTransaction g, long processId, String message) {
        g.appendLogs(List.of(EngineLog.of(processId, LogLevel.REPORT, message)));
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
            access.withTransport(computer, transport -> {
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
            broadcasts.publish(ControlSignal.kill(id));
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
        try {
            return Transactions.run(database, c -> {
                Optional<ProcessRow> locked = ProcessTable.lock(c, id);
                if (locked.isEmpty()) {
                    if (verb != null) {
                        throw new NotFoundException("cannot " + verb + " process " + id + ": there is no such process");
                    }
                    return List.of();
                }
                ProcessRow row = locked.get();
                if (row.state().isTerminal() && verb != null && !verb.equals("kill")) {
                    throw new ConflictException("cannot " + verb + " process " + id + ": it is "
                            + row.state().dbValue());
                }
                GraphTransaction g = graph.inTransaction(c);
                return action.apply(c, g, row, (ProcessNode) g.load(id));
            });
        } catch (SQLException e) {
            throw new StorageException("controlling process " + id, e);
        }
    }
}
