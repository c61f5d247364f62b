package dev.cairn.api.stats;

import java.util.Map;

import org.springframework.stereotype.Service;

import dev.cairn.engine.Engine;
import dev.cairn.engine.metrics.EngineMetrics;
import dev.cairn.engine.metrics.TaskQueueState;
import dev.cairn.engine.process.ProcessState;
import dev.cairn.storage.Storage;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.graph.statistics.GraphStatistics;
import dev.cairn.storage.graph.users.User;
import dev.cairn.storage.graph.users.UserStore;

/**
 * The graph's statistics, for every surface of the server: nodes per type and per day, processes per
 * state, for everyone or one user, read from the counts the database keeps as nodes are stored (so a read
 * costs the same on any size of graph); and the engine's own numbers now: processes by state, those that
 * ended minute by minute, the task queue.
 */
@Service
public class StatisticsService {

    private final GraphStatistics statistics;
    private final UserStore users;
    private final EngineMetrics engine;

    StatisticsService(Storage storage, Engine engine) {
        this.statistics = storage.statistics();
        this.users = storage.users();
        this.engine = engine.metrics();
    }

    /** The statistics over the last {@code days} days, of everyone's nodes or (an email) one user's. */
    public StatisticsView read(int days, String user) {
        Long userId = user == null
                ? null
                : users.findByEmail(user)
                        .map(User::id)
                        .orElseThrow(() ->
                                new InvalidInputException("parameter 'user': no user has the email '" + user + "'"));
        return StatisticsView.of(user, statistics.read(userId, days));
    }

    /** The installation's processes by state, now. */
    public Map<ProcessState, Long> processesByState() {
        return engine.processesByState();
    }

    /** How many processes ended in each of the last {@code minutes} minutes, the oldest first. */
    public long[] endedPerMinute(int minutes) {
        return engine.endedPerMinute(minutes);
    }

    /** The broker's task queue: the tasks ready and the workers consuming; unavailable while the broker is away. */
    public TaskQueueState taskQueue() {
        return engine.taskQueue();
    }
}
