package dev.cairn.api.stats;

import org.springframework.stereotype.Service;

import dev.cairn.errors.InvalidInputException;
import dev.cairn.storage.Storage;
import dev.cairn.storage.graph.statistics.GraphStatistics;
import dev.cairn.storage.graph.users.User;
import dev.cairn.storage.graph.users.UserStore;

/**
 * The graph's statistics, for every surface of the server: nodes per type and per day, processes per
 * state, for everyone or one user. Read from the counts the database keeps as nodes are stored, so a read
 * costs the same on any size of graph.
 */
@Service
public class StatisticsService {

    private final GraphStatistics statistics;
    private final UserStore users;

    StatisticsService(Storage storage) {
        this.statistics = storage.statistics();
        this.users = storage.users();
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
}
