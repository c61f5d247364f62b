package dev.cairn.engine.internal.state;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

import dev.cairn.engine.process.ProcessState;

/** How often each move of the transition table was made (by one engine's state writer). */
public final class TransitionCounts {

    private final Map<ProcessState, Map<ProcessState, LongAdder>> counts = new EnumMap<>(ProcessState.class);

    TransitionCounts() {
        for (ProcessState from : ProcessState.values()) {
            Map<ProcessState, LongAdder> row = new EnumMap<>(ProcessState.class);
            for (ProcessState to : from.next()) {
                row.put(to, new LongAdder());
            }
            counts.put(from, row);
        }
    }

    void count(ProcessState from, ProcessState to) {
        counts.get(from).get(to).increment();
    }

    /** Every move of the table with its count, in table order. */
    public Map<ProcessState.Transition, Long> snapshot() {
        Map<ProcessState.Transition, Long> all = new LinkedHashMap<>();
        counts.forEach((from, row) -> row.forEach((to, n) -> all.put(new ProcessState.Transition(from, to), n.sum())));
        return all;
    }
}
