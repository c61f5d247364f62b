package dev.cairn.engine.internal.calcjob;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.cairn.engine.events.StateChanged;
import dev.cairn.engine.internal.state.Outbox;
import dev.cairn.engine.internal.state.ProcessStates;
import dev.cairn.engine.internal.state.ProcessTable;
import dev.cairn.engine.internal.state.Task;
import dev.cairn.engine.scheduler.JobInfo;
import dev.cairn.engine.scheduler.JobState;
import dev.cairn.engine.scheduler.SchedulerException;
import dev.cairn.engine.transport.Transport;
import dev.cairn.engine.transport.TransportException;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.db.Transactions;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.GraphTransaction;
import dev.cairn.storage.graph.ProcessNode;
import dev.cairn.storage.graph.StorageException;
import dev.cairn.storage.graph.computers.Computer;

/**
 * Asks each computer's scheduler about the jobs waiting on it, with ONE command per
 * computer, and makes the calculation jobs whose job is done runnable again. Any number of
 * workers may call it, as often as they like: a computer is polled by one of them at a time
 * (an advisory lock per computer) and at most once per its {@code minimum_job_poll_interval}
 * (a time kept in the database), so a cluster sees one status query per interval, however
 * many workers there are. A poll that fails is tried again after a backoff; when the
 * computer's attempts are used up, its waiting jobs are paused with a report. What the scheduler
 * said of each job is kept on its node ({@link SchedulerStates}).
 */
public final class JobPoller {

    private static final long LOCK_SPACE = 0x6a6f6270L << 32;

    private static final Due NOTHING = new Due(List.of(), List.of(), List.of());

    /**
     * A job's recorded scheduler state is written again, unchanged, once it is this many poll
     * intervals old: at the default 10 s, a queued job's row is rewritten once a minute, not at
     * every poll (a whole attributes value, and its index entries, per write).
     */
    static final int REFRESH_INTERVALS = 6;

    private final Database database;
    private final GraphStore graph;
    private final Computers computers;
    private final ProcessStates states;
    private final ComputerAccess access;

    public JobPoller(Database database, GraphStore graph, ProcessStates states, ComputerAccess access) {
        this.database = database;
        this.graph = graph;
        this.computers = new Computers(database);
        this.states = states;
        this.access = access;
    }

    /**
     * The tasks of calculation jobs whose job is done, committed in the outbox as {@code outboxIds},
     * and the changes of scheduler state recorded, to broadcast.
     */
    public record Due(List<Task> tasks, List<Long> outboxIds, List<StateChanged> changes) {}

    /** One pass over every computer with waiting jobs that is due for a poll, each in a transaction of its own. */
    public Due pollOnce() {
        List<Task> due = new ArrayList<>();
        List<Long> outboxIds = new ArrayList<>();
        List<StateChanged> changes = new ArrayList<>();
        try {
            List<Long> computers = new ArrayList<>();
            try (Connection c = database.connection();
                    PreparedStatement s = c.prepareStatement("SELECT DISTINCT computer_id FROM job_watch");
                    ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    computers.add(rs.getLong(1));
                }
            }
            for (long computer : computers) {
                Due d = Transactions.run(database, c -> poll(c, computer));
                due.addAll(d.tasks());
                outboxIds.addAll(d.outboxIds());
                changes.addAll(d.changes());
            }
        } catch (SQLException e) {
            throw new StorageException("polling the schedulers", e);
        }
        return new Due(due, outboxIds, changes);
    }

    /**
     * Polls one computer's scheduler, in {@code c}'s transaction, which holds the computer's poll
     * lock: records each job's scheduler state, wakes the processes whose jobs ended, or counts a
     * failed poll.
     */
    private Due poll(Connection c, long computerId) throws SQLException {
        if (!tryLock(c, computerId) || !ComputerActivity.pollDue(c, computerId)) {
            return NOTHING;
        }
        Map<String, Long> processOfJob = watched(c, computerId);
        if (processOfJob.isEmpty()) {
            return NOTHING;
        }
        Computer computer = computers.get(computerId);
        ComputerSettings settings = computers.settings(computerId);
        Map<String, JobInfo> states;
        try (Transport transport = access.open(computer, settings)) {
            states = ComputerAccess.scheduler(computer).poll(transport, processOfJob.keySet());
        } catch (TransportException | SchedulerException e) {
            pollFailed(c, computer, settings, processOfJob.values(), e);
            return NOTHING;
        }
        ComputerActivity.polled(c, computerId, settings.minimumPollInterval());
        List<Long> ended = new ArrayList<>();
        Map<Long, JobInfo> jobOfProcess = new LinkedHashMap<>();
        processOfJob.forEach((jobId, processId) -> {
            // a job the scheduler no longer lists has ended
            JobInfo info = states.getOrDefault(jobId, JobInfo.missing(jobId));
            jobOfProcess.put(processId, info);
            if (info.state() == JobState.DONE) {
                ended.add(processId);
            }
        });
        List<StateChanged> changes = SchedulerStates.record(
                c, jobOfProcess, settings.minimumPollInterval().multipliedBy(REFRESH_INTERVALS));
        List<Task> due = wake(c, ended);
        return new Due(due, Outbox.add(c, due), changes);
    }

    /**
     * Stops watching the ended jobs and makes their processes runnable, in one statement;
     * returns the tasks to send. A process paused meanwhile keeps its task due: play sends it.
     */
    private static List<Task> wake(Connection c, List<Long> processes) throws SQLException {
        List<Task> due = new ArrayList<>();
        if (processes.isEmpty()) {
            return due;
        }
        try (PreparedStatement s = c.prepareStatement("WITH ended AS (DELETE FROM job_watch WHERE node_id = ANY(?)"
                + " RETURNING node_id) UPDATE process p SET runnable = true, updated = now() FROM ended"
                + " WHERE p.node_id = ended.node_id AND p.state = 'waiting' RETURNING p.node_id, p.step, p.paused")) {
            s.setArray(1, c.createArrayOf("bigint", processes.toArray()));
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    if (!rs.getBoolean(3)) {
                        due.add(new Task(rs.getLong(1), rs.getInt(2)));
                    }
                }
            }
        }
        return due;
    }

    private static boolean tryLock(Connection c, long computerId) throws SQLException {
        try (PreparedStatement lock = c.prepareStatement("SELECT pg_try_advisory_xact_lock(?)")) {
            lock.setLong(1, LOCK_SPACE | computerId);
            try (ResultSet rs = lock.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        }
    }

    /** The jobs to ask about: those of the computer's waiting processes that are not paused. */
    private static Map<String, Long> watched(Connection c, long computerId) throws SQLException {
        Map<String, Long> processOfJob = new LinkedHashMap<>();
        try (PreparedStatement s = c.prepareStatement("SELECT w.node_id, w.job_id FROM job_watch w"
                + " JOIN process p ON p.node_id = w.node_id WHERE w.computer_id = ? AND NOT p.paused")) {
            s.setLong(1, computerId);
            try (ResultSet rs = s.executeQuery()) {
                while (rs.next()) {
                    processOfJob.put(rs.getString(2), rs.getLong(1));
                }
            }
        }
        return processOfJob;
    }

    private void pollFailed(
            Connection c,
            Computer computer,
            ComputerSettings settings,
            Iterable<Long> processes,
            RuntimeException failure)
            throws SQLException {
        int failed = ComputerActivity.pollFailed(
                c, computer.id(), n -> settings.retry().delay(n - 1));
        if (failed < settings.retry().attempts()) {
            return;
        }
        ComputerActivity.resetPollFailures(c, computer.id());
        GraphTransaction g = graph.inTransaction(c);
        String why = "asking the scheduler of " + computer.label() + " about the job failed "
                + settings.retry().attempts() + " times; the last time: " + JobFailures.describe(failure);
        for (long id : processes) {
            if (ProcessTable.lock(c, id)
                    .filter(row -> !row.paused() && !row.state().isTerminal())
                    .isPresent()) {
                JobFailures.pause(c, g, states, (ProcessNode) g.load(id), why);
            }
        }
    }
}
