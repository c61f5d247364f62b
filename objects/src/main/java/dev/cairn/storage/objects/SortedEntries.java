package dev.cairn.storage.objects;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Entries sorted by key, never written once a snapshot holds them. The first word of each key has an
 * array of its own, which the search reads; everything else about entry {@code i} sits together in
 * {@code rec[i * STRIDE ...]}, so a look-up of a key not in the CPU's caches costs about four cache
 * misses (fan-out, first words, the record's one or two lines) instead of one per field: what a
 * scattered subset of the keys pays on every key, where a read of all of them reuses each line.
 */
final class SortedEntries {
    /** Words per record: key words 1 to 3, offset, stored length, size, pack and codec. */
    private static final int STRIDE = 7;
    /** The most entries whose records fit one array (about 306 million objects, 19 GB of heap). */
    private static final int MAX_ENTRIES = (Integer.MAX_VALUE - 8) / STRIDE;

    long[] k0;
    long[] rec;
    int count;

    SortedEntries(int capacity) {
        int n = Math.max(Math.min(capacity, MAX_ENTRIES), 16);
        k0 = new long[n];
        rec = new long[n * STRIDE];
    }

    static SortedEntries sorted(Collection<PackEntry> entries) {
        List<PackEntry> list = new ArrayList<>(entries);
        return of(KeyOrder.sorted(list));
    }

    /** A run of entries already in key order. */
    static SortedEntries of(List<PackEntry> list) {
        SortedEntries b = new SortedEntries(list.size());
        for (PackEntry e : list) {
            ObjectKey k = e.key();
            b.add(
                    k.word(0),
                    k.word(1),
                    k.word(2),
                    k.word(3),
                    e.pack(),
                    e.offset(),
                    e.length(),
                    e.size(),
                    e.compression().code());
        }
        return b;
    }

    private void grow() {
        if (count == k0.length) {
            if (count == MAX_ENTRIES) {
                throw new IllegalStateException("the index cache holds at most " + MAX_ENTRIES + " packed objects");
            }
            int n = (int) Math.min(2L * k0.length, MAX_ENTRIES);
            k0 = Arrays.copyOf(k0, n);
            rec = Arrays.copyOf(rec, n * STRIDE);
        }
    }

    void add(long w0, long w1, long w2, long w3, int p, long off, long len, long sz, int c) {
        grow();
        k0[count] = w0;
        int r = count * STRIDE;
        rec[r] = w1;
        rec[r + 1] = w2;
        rec[r + 2] = w3;
        rec[r + 3] = off;
        rec[r + 4] = len;
        rec[r + 5] = sz;
        rec[r + 6] = ((long) p << 8) | (c & 0xff);
        count++;
    }

    private void addFrom(SortedEntries s, int i) {
        grow();
        k0[count] = s.k0[i];
        System.arraycopy(s.rec, i * STRIDE, rec, count * STRIDE, STRIDE);
        count++;
    }

    PackEntry entry(int i) {
        int r = i * STRIDE;
        return entry(i, ObjectKey.ofWords(k0[i], rec[r], rec[r + 1], rec[r + 2]));
    }

    PackEntry entry(int i, ObjectKey key) {
        int r = i * STRIDE;
        long packAndCodec = rec[r + 6];
        return new PackEntry(
                key, (int) (packAndCodec >>> 8), rec[r + 3], rec[r + 4], rec[r + 5], Compression.ofCode((int)
                        (packAndCodec & 0xff)));
    }

    /**
     * Where each 16-bit key prefix starts, as in git's pack index: keys are uniformly spread, so a look-up
     * narrows to a handful of entries before the binary search (a few cache misses instead of ~20).
     */
    private int[] fanout;

    private int[] fanout() {
        int[] f = fanout;
        if (f == null) {
            f = new int[65537];
            int i = 0;
            for (int prefix = 0; prefix < 65536; prefix++) {
                f[prefix] = i;
                while (i < count && (int) (k0[i] >>> 48) == prefix) {
                    i++;
                }
            }
            f[65536] = count;
            fanout = f; // benign race: every thread builds the same table
        }
        return f;
    }

    /** Keys looked up together by {@link #indexOfAll}: its arrays stay in the first-level cache. */
    static final int STAGE = 512;

    /**
     * {@link #indexOf} of each key into {@code at}, for up to {@link #STAGE} keys. Every key goes through
     * one stage before any goes through the next (its fan-out slot, then its first word, then the rest of
     * its record), so the loads of a stage do not wait on each other and their cache misses overlap: a
     * look-up alone waits for three misses one after the other.
     */
    void indexOfAll(List<ObjectKey> keys, int[] at) {
        int n = keys.size();
        int[] f = fanout();
        long[] first = new long[n];
        int[] hi = new int[n];
        for (int i = 0; i < n; i++) {
            long w0 = keys.get(i).word(0);
            int prefix = (int) (w0 >>> 48);
            first[i] = w0;
            at[i] = f[prefix];
            hi[i] = f[prefix + 1];
        }
        for (int i = 0; i < n; i++) {
            // the first entry of the slot whose first word is not below the key's
            int lo = at[i];
            int h = hi[i];
            while (lo < h) {
                int mid = (lo + h) >>> 1;
                if (Long.compareUnsigned(k0[mid], first[i]) < 0) {
                    lo = mid + 1;
                } else {
                    h = mid;
                }
            }
            at[i] = lo;
        }
        for (int i = 0; i < n; i++) {
            ObjectKey k = keys.get(i);
            int j = at[i];
            at[i] = -1;
            // first words are 64 random bits: two keys sharing one are met in tests, not in stores
            for (; j < hi[i] && k0[j] == first[i]; j++) {
                int r = j * STRIDE;
                if (rec[r] == k.word(1) && rec[r + 1] == k.word(2) && rec[r + 2] == k.word(3)) {
                    at[i] = j;
                    break;
                }
            }
        }
    }

    int indexOf(ObjectKey key) {
        long w0 = key.word(0);
        long w1 = key.word(1);
        long w2 = key.word(2);
        long w3 = key.word(3);
        int[] f = fanout();
        int prefix = (int) (w0 >>> 48);
        int lo = f[prefix];
        int hi = f[prefix + 1] - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = compare(mid, w0, w1, w2, w3);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    private int compare(int i, long w0, long w1, long w2, long w3) {
        int c = Long.compareUnsigned(k0[i], w0);
        if (c != 0) {
            return c;
        }
        int r = i * STRIDE;
        c = Long.compareUnsigned(rec[r], w1);
        if (c != 0) {
            return c;
        }
        c = Long.compareUnsigned(rec[r + 1], w2);
        return c != 0 ? c : Long.compareUnsigned(rec[r + 2], w3);
    }

    /** Merges two sorted runs; where both hold a key, {@code b}'s entry wins (it is the newer). */
    static SortedEntries merge(SortedEntries a, SortedEntries b) {
        SortedEntries out = new SortedEntries(a.count + b.count);
        int i = 0;
        int j = 0;
        while (i < a.count || j < b.count) {
            if (j == b.count) {
                out.addFrom(a, i++);
            } else if (i == a.count) {
                out.addFrom(b, j++);
            } else {
                int r = j * STRIDE;
                int c = a.compare(i, b.k0[j], b.rec[r], b.rec[r + 1], b.rec[r + 2]);
                if (c < 0) {
                    out.addFrom(a, i++);
                } else if (c > 0) {
                    out.addFrom(b, j++);
                } else {
                    out.addFrom(b, j++);
                    i++;
                }
            }
        }
        return out;
    }
}
