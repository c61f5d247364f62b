package dev.cairn.engine.launch;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import dev.cairn.engine.events.StateChanged;
import dev.cairn.engine.internal.calcjob.ComputerAccess;
import dev.cairn.engine.internal.calcjob.JobPoller;
import dev.cairn.engine.internal.runtime.StepExecutor;
import dev.cairn.engine.internal.runtime.StepOutcome;
import dev.cairn.engine.internal.state.Outbox;
import dev.cairn.engine.internal.state.Task;
import dev.cairn.engine.process.CalcJobDefinition;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.storage.db.Database;
import dev.cairn.storage.graph.GraphStore;
import dev.cairn.storage.graph.StorageException;

/**
 * A committed process run in this thread, children included, until nothing of it is left to run or to
 * wait for ({@link Launcher#run}): its steps in turn and, while a calculation job of it waits, the
 * schedulers polled and the retries that come due taken, as a worker would. Nothing waits on the broker.
 */
final class InThreadRun {

    private final Database database;
    private final GraphStore graph;
    private final StepExecutor executor;
    private final ComputerAccess access;

    InThreadRun(Database database, GraphStore graph, StepExecutor executor, ComputerAccess access) {
        this.database = database;
        this.graph = graph;
        this.executor = executor;
        this.access = access;
    }

    /**
     * Runs the process {@code root} from its first step; {@code committed} are the outbox rows its launch
     * left, forgotten as the worker's would be.
     */
    void untilDone(long root, List<Long> committed) {
        List<Long> published = new ArrayList<>(committed);
        Deque<Task> queue = new ArrayDeque<>(List.of(new Task(root, 0)));
        JobPoller jobs = new JobPoller(database, graph, executor.states(), access);
        boolean mayWait = false;
        while (true) {
            while (!queue.isEmpty()) {
                StepOutcome outcome = executor.execute(queue.removeFirst(), List.copyOf(published));
                published.clear();
                published.addAll(outcome.outboxIds());
                queue.addAll(outcome.tasks());
                // a calculation job now waits for its scheduler, or a step of one will be tried again later
                mayWait |= outcome.changes().stream().anyMatch(this::isJobWaiting)
                        || (!outcome.wasSkipped()
                                && outcome.changes().isEmpty()
                                && outcome.tasks().isEmpty());
            }
            // only a run that may wait asks whether anything of it still does
            if (!mayWait || !waitsForAJob(root)) {
                break;
            }
            // as a worker would: poll the schedulers, and take the retries now due
            JobPoller.Due done = jobs.pollOnce();
            queue.addAll(done.tasks());
            published.addAll(done.outboxIds());
            queue.addAll(claimRetries(root));
            if (queue.isEmpty()) {
                sleepQuietly(100);
            }
        }
        Outbox.forget(database, published);
    }

    private boolean isJobWaiting(StateChanged change) {
        return change.to() == ProcessState.WAITING
                && executor.registry().get(change.entryPoint()) instanceof CalcJobDefinition;
    }

    private static final String TREE = "WITH RECURSIVE tree(id) AS (SELECT ?::bigint UNION ALL SELECT p.node_id"
            + " FROM process p JOIN tree t ON p.parent_id = t.id) ";

    /**
     * True while some process of this run (the root or a descendant) waits for a scheduler job
     * or for the retry of a failed job step; a paused one waits for nobody.
     */
    private boolean waitsForAJob(long root) {
        try (Connection c = database.connection();
                var s = c.prepareStatement(
                        TREE + "SELECT EXISTS (SELECT 1 FROM tree t JOIN process p ON p.node_id = t.id"
                                + " WHERE NOT p.paused AND (EXISTS (SELECT 1 FROM job_watch w WHERE w.node_id = t.id)"
                                + " OR EXISTS (SELECT 1 FROM outbox o WHERE o.process_id = t.id AND o.due IS NOT NULL)))")) {
            s.setLong(1, root);
            try (var rs = s.executeQuery()) {
                rs.next();
                return rs.getBoolean(1);
            }
        } catch (SQLException e) {
            throw new StorageException("checking the jobs of process " + root, e);
        }
    }

    /** The delayed tasks of this run that are due, taken out of the outbox. */
    private List<Task> claimRetries(long root) {
        List<Task> due = new ArrayList<>();
        try (Connection c = database.connection();
                var s = c.prepareStatement(TREE + "DELETE FROM outbox o USING tree t WHERE o.process_id = t.id"
                        + " AND o.due <= now() RETURNING o.process_id, o.step")) {
            s.setLong(1, root);
            try (var rs = s.executeQuery()) {
                while (rs.next()) {
                    due.add(new Task(rs.getLong(1), rs.getInt(2)));
                }
            }
        } catch (SQLException e) {
            throw new StorageException("taking the retries of process " + root, e);
        }
        return due;
    }

    private static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a calculation job", e);
        }
    }
}
