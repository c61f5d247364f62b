package dev.cairn.storage.objects;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * This process's copy of the pack index, in memory, so that a look-up costs a binary search instead of
 * a database statement (about 5 µs through JDBC, more than a whole read should cost). About 64 bytes per
 * packed object: sorted primitive arrays, plus a small map of recent additions merged in when it grows.
 *
 * <p>Staying current: {@link #refresh} asks SQLite whether anything was committed since the last time
 * ({@code PRAGMA data_version}, about 4 µs), and only then queries the index counters (about 20 µs) and
 * reads the segments committed since; every bulk call and every missed look-up runs it. Entries never point at
 * wrong bytes even when stale: packs are append-only and a repack writes new pack files (ids are never
 * reused), so an old location keeps the object's bytes until its pack file is deleted, and then the read
 * fails and is retried after a refresh.
 *
 * <p>A snapshot also holds the keys marked pending deletion ({@link Marks}), read in the same transaction
 * as its entries, so the two always agree. A put decides on {@link #recent}, at most {@link #MAX_AGE} old:
 * see {@link Sweep} for why that bound makes the marks safe for puts in every process.
 */
final class IndexCache {

    private static final int MERGE_MIN = 1 << 14;
    /**
     * How old a view of the index a put may decide on. A sweep deletes a key only when its mark is older
     * than the grace plus this: a put that missed the mark started less than this after it.
     */
    static final Duration MAX_AGE = Duration.ofSeconds(1);

    private final PackIndex index;
    private volatile Snapshot snapshot;
    /** The index's data version when {@link #snapshot} was last found current; guarded by this. */
    private long version = -1;
    /**
     * {@link System#nanoTime} before the index was last found to hold nothing newer than {@link #snapshot}.
     * Written after {@link #snapshot}, and read before it, so a reader never pairs it with an older snapshot.
     */
    private volatile long checkedAt;

    IndexCache(PackIndex index) {
        this.index = index;
    }

    /** The entry of a packed key, or null; loads the cache the first time, otherwise does not query. */
    PackEntry find(ObjectKey key) throws IOException {
        Snapshot s = snapshot;
        if (s == null) {
            s = refresh();
        }
        return s.find(key);
    }

    /** The entry, refreshing from the index first. */
    PackEntry findFresh(ObjectKey key) throws IOException {
        return refresh().find(key);
    }

    /**
     * A snapshot found current at most {@link #MAX_AGE} ago, refreshed first if need be: about once a
     * second under a stream of puts, each a data version query (about 4 µs) unless something changed.
     */
    Snapshot recent() throws IOException {
        long checked = checkedAt;
        Snapshot s = snapshot;
        if (s == null || System.nanoTime() - checked > MAX_AGE.toNanos()) {
            synchronized (this) { // one refresh for all the threads that found it stale
                s = snapshot;
                if (s == null || System.nanoTime() - checkedAt > MAX_AGE.toNanos()) {
                    s = refresh();
                }
            }
        }
        return s;
    }

    /** Brings the cache up to date with the index and returns the current snapshot. */
    synchronized Snapshot refresh() throws IOException {
        long started = System.nanoTime();
        Snapshot s = current();
        checkedAt = started;
        return s;
    }

    private Snapshot current() throws IOException {
        Snapshot s = snapshot;
        // Read before the counters: a commit after this read changes the version the next call sees, and
        // one before it shows in the counters.
        long v = index.dataVersion();
        if (s != null && v == version) {
            return s;
        }
        version = v;
        PackIndex.State state = index.state();
        if (s != null && s.epoch == state.epoch() && s.seq == state.seq() && s.marksVersion == state.marks()) {
            return s;
        }
        if (s != null && s.epoch == state.epoch()) {
            List<PackEntry> added = new ArrayList<>();
            PackIndex.Read read = index.segmentsAfter(
                    s.seq,
                    s.marksVersion,
                    (seq, records) -> Segment.decode(
                            records,
                            (w0, w1, w2, w3, pack, offset, length, size, codec) -> added.add(new PackEntry(
                                    ObjectKey.ofWords(w0, w1, w2, w3),
                                    pack,
                                    offset,
                                    length,
                                    size,
                                    Compression.ofCode(codec)))));
            if (read.state().epoch() == s.epoch) {
                Snapshot next = s.plus(added, s.epoch, read.state().seq());
                snapshot = read.marks() == null
                        ? next
                        : next.withMarks(read.marks(), read.state().marks());
                return snapshot;
            }
        }
        snapshot = load();
        return snapshot;
    }

    private Snapshot load() throws IOException {
        List<Builder> runs = new ArrayList<>();
        PackIndex.Read read = index.segmentsAfter(0, -1, (seq, records) -> {
            Builder b = new Builder(records.length / Segment.RECORD);
            Segment.decode(records, b::add);
            runs.add(b);
        });
        Builder all = runs.isEmpty() ? new Builder(16) : runs.get(0);
        for (int i = 1; i < runs.size(); i++) {
            all = Builder.merge(all, runs.get(i));
        }
        PackIndex.State state = read.state();
        return new Snapshot(all, Map.of(), state.epoch(), state.seq(), read.marks(), state.marks());
    }

    /**
     * Adds entries (sorted by key) this process just committed, without a round trip to the index, if the
     * cache was complete up to {@code seqBefore} and the commit did not rewrite the index. The marks stay
     * as they were, with their version: if the commit changed them, the next refresh reads them.
     */
    synchronized void addCommitted(List<PackEntry> sorted, long seqBefore, PackIndex.State after) {
        Snapshot s = snapshot;
        if (s != null && s.epoch == after.epoch() && s.seq == seqBefore) {
            snapshot = s.plusSorted(sorted, after.epoch(), after.seq());
        } else {
            snapshot = null; // reloaded at the next look-up
        }
    }

    /** Forgets everything: after this process rewrote the index. */
    synchronized void invalidate() {
        snapshot = null;
    }

    /** Every cached entry, in key order, after a refresh. */
    void forEach(Consumer<PackEntry> each) throws IOException {
        refresh().forEach(each);
    }

    /** An immutable view of the index at one point. */
    static final class Snapshot {
        final long epoch;
        final long seq;
        final long marksVersion;
        private final Builder base;
        private final Map<ObjectKey, PackEntry> recent;
        private final Marks marks;

        private Snapshot(
                Builder base, Map<ObjectKey, PackEntry> recent, long epoch, long seq, Marks marks, long marksVersion) {
            this.base = base;
            this.recent = recent;
            this.epoch = epoch;
            this.seq = seq;
            this.marks = marks;
            this.marksVersion = marksVersion;
        }

        private Snapshot withMarks(Marks newMarks, long newVersion) {
            return new Snapshot(base, recent, epoch, seq, newMarks, newVersion);
        }

        /** Whether the key is marked pending deletion: a put must store it again rather than count on it. */
        boolean marked(ObjectKey key) {
            return !marks.isEmpty() && marks.contains(key);
        }

        private int size() {
            return base.count + recent.size();
        }

        PackEntry find(ObjectKey key) {
            if (!recent.isEmpty()) {
                PackEntry e = recent.get(key);
                if (e != null) {
                    return e;
                }
            }
            int i = base.indexOf(key);
            return i < 0 ? null : base.entry(i, key);
        }

        /**
         * The entries of {@code keys}, in their order, null for keys not packed. The same as {@link #find}
         * on each key, and faster when the look-ups miss the CPU's caches, as those of a scattered subset of
         * the keys do: see {@link Builder#indexOfAll}.
         */
        PackEntry[] findAll(List<ObjectKey> keys) {
            PackEntry[] out = new PackEntry[keys.size()];
            int[] at = new int[Math.min(keys.size(), Builder.STAGE)];
            for (int from = 0; from < keys.size(); from += Builder.STAGE) {
                List<ObjectKey> part = keys.subList(from, Math.min(keys.size(), from + Builder.STAGE));
                base.indexOfAll(part, at);
                for (int i = 0; i < part.size(); i++) {
                    ObjectKey k = part.get(i);
                    PackEntry e = recent.isEmpty() ? null : recent.get(k);
                    out[from + i] = e != null ? e : at[i] < 0 ? null : base.entry(at[i], k);
                }
            }
            return out;
        }

        void forEach(Consumer<PackEntry> each) {
            Builder all = recent.isEmpty() ? base : Builder.merge(base, Builder.sorted(recent.values()));
            for (int i = 0; i < all.count; i++) {
                each.accept(all.entry(i));
            }
        }

        /** As {@link #plus}, for entries already sorted by key: large runs merge straight into the arrays. */
        Snapshot plusSorted(List<PackEntry> sorted, long newEpoch, long newSeq) {
            if (recent.isEmpty() && sorted.size() > Math.max(MERGE_MIN, base.count / 8)) {
                Builder run = Builder.of(sorted);
                return new Snapshot(
                        base.count == 0 ? run : Builder.merge(base, run),
                        Map.of(),
                        newEpoch,
                        newSeq,
                        marks,
                        marksVersion);
            }
            return plus(sorted, newEpoch, newSeq);
        }

        Snapshot plus(Collection<PackEntry> added, long newEpoch, long newSeq) {
            Map<ObjectKey, PackEntry> r = new HashMap<>(recent);
            for (PackEntry e : added) {
                r.put(e.key(), e);
            }
            if (r.size() > Math.max(MERGE_MIN, base.count / 8)) {
                return new Snapshot(
                        Builder.merge(base, Builder.sorted(r.values())),
                        Map.of(),
                        newEpoch,
                        newSeq,
                        marks,
                        marksVersion);
            }
            return new Snapshot(base, r, newEpoch, newSeq, marks, marksVersion);
        }

        /**
         * The segments of an index holding these entries, less {@code removed}, with {@code moved} entries
         * at their new places, plus {@code added} (new keys, sorted): what a rewrite of the index stores.
         */
        List<byte[]> rewritten(Set<ObjectKey> removed, Map<ObjectKey, PackEntry> moved, List<PackEntry> added) {
            List<PackEntry> kept = new ArrayList<>(size());
            forEach(
                    e -> { // in key order, and a move keeps the key: no sort needed
                        if (!removed.contains(e.key())) {
                            kept.add(moved.getOrDefault(e.key(), e));
                        }
                    });
            List<PackEntry> all = added.isEmpty() ? kept : KeyOrder.merge(kept, added);
            List<byte[]> segments = new ArrayList<>();
            for (int i = 0; i < all.size(); i += Segment.MAX_ENTRIES) {
                segments.add(Segment.encode(all.subList(i, Math.min(all.size(), i + Segment.MAX_ENTRIES))));
            }
            return segments;
        }
    }

    /**
     * Entries sorted by key, never written once a snapshot holds them. The first word of each key has an
     * array of its own, which the search reads; everything else about entry {@code i} sits together in
     * {@code rec[i * STRIDE ...]}, so a look-up of a key not in the CPU's caches costs about four cache
     * misses (fan-out, first words, the record's one or two lines) instead of one per field: what a
     * scattered subset of the keys pays on every key, where a read of all of them reuses each line.
     */
    private static final class Builder {
        /** Words per record: key words 1 to 3, offset, stored length, size, pack and codec. */
        private static final int STRIDE = 7;
        /** The most entries whose records fit one array (about 306 million objects, 19 GB of heap). */
        private static final int MAX_ENTRIES = (Integer.MAX_VALUE - 8) / STRIDE;

        long[] k0;
        long[] rec;
        int count;

        Builder(int capacity) {
            int n = Math.max(Math.min(capacity, MAX_ENTRIES), 16);
            k0 = new long[n];
            rec = new long[n * STRIDE];
        }

        static Builder sorted(Collection<PackEntry> entries) {
            List<PackEntry> list = new ArrayList<>(entries);
            return of(KeyOrder.sorted(list));
        }

        /** A run of entries already in key order. */
        static Builder of(List<PackEntry> list) {
            Builder b = new Builder(list.size());
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

        private void addFrom(Builder s, int i) {
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
        static Builder merge(Builder a, Builder b) {
            Builder out = new Builder(a.count + b.count);
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
}
