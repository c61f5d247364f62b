package dev.cairn.api.stats;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The graph's statistics: nodes per type and day, processes per state. */
@RestController
@RequestMapping("/api/v1/statistics")
@Tag(name = "statistics", description = "How many nodes and processes there are; reading needs the role read")
class StatisticsController {

    private final StatisticsService statistics;

    StatisticsController(StatisticsService statistics) {
        this.statistics = statistics;
    }

    @GetMapping
    @Operation(
            operationId = "showStatistics",
            summary = "The graph's statistics",
            description = "Nodes per node type and per process type, nodes created per day (UTC) over the last"
                    + " 'days' days, processes per state and how many are paused; for everyone, or for the nodes"
                    + " of one user. Read from counts the database keeps as nodes are stored, deleted and change"
                    + " state, so it costs the same on any size of graph, and it is exact at the moment it is read.")
    StatisticsView statistics(
            @Parameter(description = "how many days of creation to count, today included (1 to 3660)", example = "30")
                    @RequestParam(name = "days", defaultValue = "30")
                    int days,
            @Parameter(description = "only the nodes of this user (an email)", example = "alice@example.org")
                    @RequestParam(name = "user", required = false)
                    String user) {
        return statistics.read(days, user);
    }
}
