package dev.cairn.api.stats;

import java.time.LocalDate;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.swagger.v3.oas.annotations.media.Schema;

import dev.cairn.storage.graph.statistics.Statistics;

/** The graph's statistics as the API shows them. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(description = "How many nodes there are, by type and day of creation, and processes by state", example = """
                {"total": 1000000,
                 "nodeTypes": {"data.core.int.Int.": 412000, "data.core.structure.StructureData.": 100000,
                  "process.calculation.calcjob.CalcJobNode.": 120000},
                 "processTypes": {"arithmetic.add": 120000},
                 "days": {"2026-11-22": 0, "2026-11-23": 1520, "2026-11-24": 310},
                 "processStates": {"finished": 119000, "waiting": 990, "excepted": 10},
                 "paused": 3}""")
record StatisticsView(
        @Schema(description = "the user counted; absent: everyone")
        String user,

        @Schema(description = "every node") long total,
        @Schema(description = "nodes per node type") Map<String, Long> nodeTypes,

        @Schema(description = "process nodes per process type (the entry point that ran)")
        Map<String, Long> processTypes,

        @Schema(description = "nodes created per day (UTC), oldest first; a day without any is 0")
        Map<LocalDate, Long> days,

        @Schema(description = "process nodes per state: created, waiting, finished, excepted, killed")
        Map<String, Long> processStates,

        @Schema(description = "process nodes that are paused (also counted under their state)")
        long paused) {

    static StatisticsView of(String user, Statistics s) {
        return new StatisticsView(
                user, s.total(), s.nodeTypes(), s.processTypes(), s.days(), s.processStates(), s.paused());
    }
}
