package dev.cairn.storage.graph.statistics;

import java.time.LocalDate;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Counts of the graph's nodes at one moment, all taken from one snapshot.
 *
 * @param total         every node
 * @param nodeTypes     nodes per node type ({@code data.core.int.Int.}, ...), by type
 * @param processTypes  process nodes per process type (the entry point that ran), by type
 * @param days          nodes created per day (UTC) over the days asked for, oldest first, a day
 *                      without any with 0
 * @param processStates process nodes per process state ({@code created}, {@code waiting},
 *                      {@code finished}, {@code excepted}, {@code killed}), by state
 * @param paused        process nodes that are paused (also counted under their state)
 */
public record Statistics(
        long total,
        SortedMap<String, Long> nodeTypes,
        SortedMap<String, Long> processTypes,
        SortedMap<LocalDate, Long> days,
        SortedMap<String, Long> processStates,
        long paused) {

    public Statistics {
        nodeTypes = frozen(nodeTypes);
        processTypes = frozen(processTypes);
        days = frozen(days);
        processStates = frozen(processStates);
    }

    private static <K, V> SortedMap<K, V> frozen(Map<K, V> map) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(map));
    }
}
