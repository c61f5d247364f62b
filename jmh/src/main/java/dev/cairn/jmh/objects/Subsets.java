package dev.cairn.jmh.objects;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Random subsets of a workload's objects, as an export reads them: a scattered fraction of the keys, in
 * a random order. Each index gets a 64-bit draw from SplitMix64's finaliser, so the peer's script
 * ({@code jmh/objects-peer/subset_reads.py}) draws the same subsets without sharing a generator: index
 * {@code i} is in subset {@code rep} when the top 53 bits of {@code mix(i + (rep + 1) * GOLDEN)} fall below
 * {@code fraction * 2^53}, and a subset lists its indices in the order of their draws.
 */
final class Subsets {

    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private Subsets() {}

    /** SplitMix64's output function: a bijection of 64-bit values that spreads neighbours apart. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The indices of subset {@code rep} of {@code n} objects holding about {@code fraction} of them. */
    static List<Integer> draw(int n, double fraction, int rep) {
        long threshold = (long) (fraction * (1L << 53));
        long salt = (rep + 1) * GOLDEN;
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (draw(i, salt) < threshold) {
                out.add(i);
            }
        }
        out.sort(Comparator.<Integer>comparingLong(i -> draw(i, salt)).thenComparing(i -> i));
        return out;
    }

    private static long draw(int i, long salt) {
        return mix(i + salt) >>> 11;
    }

    /** {@code list} cut into {@code parts} consecutive chunks of (nearly) equal length. */
    static <T> List<List<T>> chunks(List<T> list, int parts) {
        int size = Math.max(1, (list.size() + parts - 1) / parts);
        List<List<T>> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i += size) {
            out.add(list.subList(i, Math.min(list.size(), i + size)));
        }
        return out;
    }
}
