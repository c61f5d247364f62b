package dev.cairn.jmh.server;

import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** The load programs' figures: percentiles of sorted samples, rounding, and progress on stderr. */
final class LoadFigures {

    private LoadFigures() {}

    /** n, min, median, p90, p99 and max of sorted microseconds, in milliseconds. */
    static Map<String, Object> stats(long[] sortedMicros) {
        return stats(sortedMicros, 1000.0);
    }

    static Map<String, Object> stats(long[] sorted, double perMs) {
        Map<String, Object> s = new LinkedHashMap<>();
        if (sorted.length == 0) {
            return s;
        }
        s.put("n", sorted.length);
        s.put("min", round(sorted[0] / perMs));
        s.put("median", round(sorted[sorted.length / 2] / perMs));
        s.put("p90", round(sorted[(int) (sorted.length * 0.9)] / perMs));
        s.put("p99", round(sorted[(int) (sorted.length * 0.99)] / perMs));
        s.put("max", round(sorted[sorted.length - 1] / perMs));
        return s;
    }

    /** Both arrays in one, sorted. */
    static long[] concat(long[] a, long[] b) {
        long[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        Arrays.sort(all);
        return all;
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }

    static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }

    static void log(String format, Object... args) {
        System.err.printf("[%s] %s%n", Instant.now(), String.format(format, args));
    }
}
