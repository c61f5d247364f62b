package dev.cairn.storage.objects;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Sorts entries by key through primitive longs (the top 44 bits of the key with the list position in the
 * low 20): several times faster than comparing objects scattered over the heap. Keys are uniformly
 * random, so ties on the 44-bit prefix are rare and are finished by a full comparison.
 */
final class KeyOrder {

    private static final int INDEX_BITS = 20;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;

    private KeyOrder() {}

    static List<PackEntry> sorted(List<PackEntry> entries) {
        List<PackEntry> out = new ArrayList<>(entries.size());
        for (int from = 0; from < entries.size(); from += 1 << INDEX_BITS) {
            // runs of 2^20 are sorted apart and merged: the position needs 20 bits
            List<PackEntry> run = sortRun(entries.subList(from, Math.min(entries.size(), from + (1 << INDEX_BITS))));
            out = from == 0 ? run : merge(out, run);
        }
        return out;
    }

    private static List<PackEntry> sortRun(List<PackEntry> run) {
        long[] order = new long[run.size()];
        for (int i = 0; i < order.length; i++) {
            // flip the sign bit so that signed order equals the key's unsigned order
            order[i] = (((run.get(i).key().word(0) >>> INDEX_BITS) << INDEX_BITS) ^ Long.MIN_VALUE) | i;
        }
        Arrays.sort(order);
        List<PackEntry> out = new ArrayList<>(order.length);
        for (long o : order) {
            out.add(run.get((int) (o & INDEX_MASK)));
        }
        for (int i = 1; i < out.size(); i++) {
            if ((order[i] >>> INDEX_BITS) == (order[i - 1] >>> INDEX_BITS)) {
                int j = i - 1;
                while (i < out.size() && (order[i] >>> INDEX_BITS) == (order[j] >>> INDEX_BITS)) {
                    i++;
                }
                out.subList(j, i).sort((a, b) -> a.key().compareTo(b.key()));
            }
        }
        return out;
    }

    /** Merges two lists already in key order. */
    static List<PackEntry> merge(List<PackEntry> a, List<PackEntry> b) {
        List<PackEntry> out = new ArrayList<>(a.size() + b.size());
        int i = 0;
        int j = 0;
        while (i < a.size() || j < b.size()) {
            if (j == b.size()
                    || (i < a.size() && a.get(i).key().compareTo(b.get(j).key()) <= 0)) {
                out.add(a.get(i++));
            } else {
                out.add(b.get(j++));
            }
        }
        return out;
    }
}
