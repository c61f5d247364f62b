package dev.cairn.engine.runtime;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.cairn.engine.scheduler.JobInfo;
import dev.cairn.engine.scheduler.JobState;
import dev.cairn.engine.scheduler.Scheduler;
import dev.cairn.engine.transport.Transport;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.Computer;
import dev.cairn.storage.graph.ComputerStore;
import dev.cairn.storage.graph.StorageException;

/**
 * Asks each computer's scheduler about the jobs waiting on it, with ONE command per
 * computer, and makes the calculation jobs whose job is done runnable again. Any number of
 * workers may call it: a computer is polled by one of them at a time (an advisory lock per
 * computer), so a cluster sees one status query per poll interval, not one per worker.
 */
public final class JobPoller {

    private static final long LOCK_SPACE = 0x6a6f6270L << 32;

    private final Database database;

    public JobPoller(Database database) {
        this.database = database;
    }

    /** One pass over every computer with waiting jobs; returns the tasks of the jobs that are done (committed in the outbox). */
    public List<Task> pollOnce() {
        List<Task> due = new ArrayList<>();
        try (Connection c = database.connection()) {
            List<Long> computers = new ArrayList<>();
            try (PreparedStatement s = c.prepareStatement("SELECT DISTINCT computer_id FROM job_watch");
                 ResultSet rs = s.executeQuery()) {
                while (rs.next())
                    computers.add(rs.getLong(1));
            }
            for (long computer : computers)
                due.addAll(poll(c, computer));
        } catch (SQLException e) {
            throw new StorageException("polling the schedulers", e);
        }
        return due;
    }

    private List<Task> poll(Connection c, long computerId) throws SQLException {
        c.setAutoCommit(false);
        try {
            try (PreparedStatement lock = c.prepareStatement("SELECT pg_try_advisory_xact_lock(?)")) {
                lock.setLong(1, LOCK_SPACE | computerId);
                try (ResultSet rs = lock.executeQuery()) {
                    rs.next();
                    if (!rs.getBoolean(1)) {
                        c.rollback();
                        return List.of();
                    }
                }
            }
            Map<String, Long> processOfJob = new LinkedHashMap<>();
            try (PreparedStatement s = c.prepareStatement("SELECT node_id, job_id FROM job_watch WHERE computer_id = ?")) {
                s.setLong(1, computerId);
                try (ResultSet rs = s.executeQuery()) {
                    while (rs.next())
                        processOfJob.put(rs.getString(2), rs.getLong(1));
                }
            }
            Computer computer = new ComputerStore(database).get(computerId);
            Scheduler scheduler = ComputerAccess.scheduler(computer);
            Map<String, JobInfo> states;
            try (Transport transport = ComputerAccess.transport(computer, Map.of())) {
                states = scheduler.poll(transport, processOfJob.keySet());
            }
            List<Task> due = new ArrayList<>();
            for (var e : processOfJob.entrySet()) {
                JobInfo info = states.get(e.getKey());
                if (info != null && info.state() != JobState.DONE)
                    continue;
                try (PreparedStatement s = c.prepareStatement("DELETE FROM job_watch WHERE node_id = ?")) {
                    s.setLong(1, e.getValue());
                    s.executeUpdate();
                }
                try (PreparedStatement s = c.prepareStatement("UPDATE process SET runnable = true, updated = now()"
                    + " WHERE node_id = ? AND state = 'waiting' AND NOT paused RETURNING step")) {
                    s.setLong(1, e.getValue());
                    try (ResultSet rs = s.executeQuery()) {
                        if (rs.next())
                            due.add(new Task(e.getValue(), rs.getInt(1)));
                    }
                }
            }
            Outbox.add(c, due);
            c.commit();
            return due;
        } catch (SQLException | RuntimeException e) {
            c.rollback();
            throw e;
        } finally {
            c.setAutoCommit(true);
        }
    }
}
