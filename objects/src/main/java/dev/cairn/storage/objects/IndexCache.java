package dev.cairn.storage.objects;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * This process's copy of the pack index, in memory, so that a look-up costs a binary search instead of
 * a database statement (a round through JDBC and SQLite costs more than a whole read should). About 64 bytes per
 * packed object: sorted primitive arrays, plus a small map of recent additions merged in when it grows.
 *
 * <p>Staying current: {@link #refresh} asks SQLite whether anything was committed since the last time
 * ({@code PRAGMA data_version}, the cheapest statement SQLite answers), and only then queries the index counters and
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
     * second under a stream of puts, each a data version query unless something changed.
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
        index.catchUp(); // a container in a bucket: apply what other hosts committed to its log
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
        List<SortedEntries> runs = new ArrayList<>();
        PackIndex.Read read = index.segmentsAfter(0, -1, (seq, records) -> {
            SortedEntries b = new SortedEntries(records.length / Segment.RECORD);
            Segment.decode(records, b::add);
            runs.add(b);
        });
        SortedEntries all = runs.isEmpty() ? new SortedEntries(16) : runs.get(0);
        for (int i = 1; i < runs.size(); i++) {
            all = SortedEntries.merge(all, runs.get(i));
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
        private final SortedEntries base;
        private final Map<ObjectKey, PackEntry> recent;
        private final Marks marks;

        private Snapshot(
                SortedEntries base,
                Map<ObjectKey, PackEntry> recent,
                long epoch,
                long seq,
                Marks marks,
                long marksVersion) {
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
         * the keys do: see {@link SortedEntries#indexOfAll}.
         */
        PackEntry[] findAll(List<ObjectKey> keys) {
            PackEntry[] out = new PackEntry[keys.size()];
            int[] at = new int[Math.min(keys.size(), SortedEntries.STAGE)];
            for (int from = 0; from < keys.size(); from += SortedEntries.STAGE) {
                List<ObjectKey> part = keys.subList(from, Math.min(keys.size(), from + SortedEntries.STAGE));
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
            SortedEntries all =
                    recent.isEmpty() ? base : SortedEntries.merge(base, SortedEntries.sorted(recent.values()));
            for (int i = 0; i < all.count; i++) {
                each.accept(all.entry(i));
            }
        }

        /** As {@link #plus}, for entries already sorted by key: large runs merge straight into the arrays. */
        Snapshot plusSorted(List<PackEntry> sorted, long newEpoch, long newSeq) {
            if (recent.isEmpty() && sorted.size() > Math.max(MERGE_MIN, base.count / 8)) {
                SortedEntries run = SortedEntries.of(sorted);
                return new Snapshot(
                        base.count == 0 ? run : SortedEntries.merge(base, run),
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
                        SortedEntries.merge(base, SortedEntries.sorted(r.values())),
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
}
