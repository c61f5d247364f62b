package dev.cairn.storage.objects;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * This process's copy of the pack index, in memory, so that a look-up costs a binary search instead of
 * an SQLite statement (about 5 µs through JDBC, the bottleneck of every read). About 61 bytes per packed
 * object: sorted primitive arrays, plus a small map of recent additions merged in when it grows.
 *
 * <p>Staying current: a look-up that misses refreshes first (one query on the index counters, then only
 * the batches inserted since). Entries never point at wrong bytes even when stale: packs are append-only
 * and a repack writes new pack files, so an old location keeps the object's bytes until its pack file is
 * deleted. Deletes and relocations by other processes bump the index epoch and are seen at the next
 * {@link #refresh}, which every bulk call and every miss runs.
 */
final class IndexCache {

    private static final VarHandle LONG_BE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final int MERGE_MIN = 1 << 14;

    private final PackIndex index;
    private volatile Snapshot snapshot;

    IndexCache(PackIndex index) {
        this.index = index;
    }

    /** The entry of a packed key, or null; does not query the index. */
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

    /** Brings the cache up to date with the index and returns the current snapshot. */
    synchronized Snapshot refresh() throws IOException {
        PackIndex.State state = index.state();
        Snapshot s = snapshot;
        if (s == null || s.epoch != state.epoch()) {
            s = load(state);
        } else if (s.seq < state.seq()) {
            Map<ObjectKey, PackEntry> added = new HashMap<>();
            index.scanSince(s.seq, (hash, pack, offset, length, size, codec) -> {
                ObjectKey key = ObjectKey.ofDigest(hash);
                added.put(key, new PackEntry(key, pack, offset, length, size, Compression.ofCode(codec)));
            });
            s = s.plus(added.values(), state.epoch(), state.seq());
        }
        snapshot = s;
        return s;
    }

    /** Adds entries this process just committed (batch {@code seq}), without a round trip to the index. */
    synchronized void addCommitted(Collection<PackEntry> entries, long seq) {
        Snapshot s = snapshot;
        if (s == null) {
            return; // nothing loaded yet: the first look-up loads everything, these included
        }
        // Only when no other batch came in between is the cache complete up to seq.
        long newSeq = s.seq == seq - 1 ? seq : s.seq;
        snapshot = s.plus(entries, s.epoch, newSeq);
    }

    /** Forgets everything: after this process deleted or relocated entries. */
    synchronized void invalidate() {
        snapshot = null;
    }

    private Snapshot load(PackIndex.State state) throws IOException {
        Builder b = new Builder();
        index.scan(b::add);
        return b.build(state.epoch(), state.seq());
    }

    /** Every cached entry, in key order. */
    void forEach(Consumer<PackEntry> each) throws IOException {
        refresh().forEach(each);
    }

    /** An immutable view of the index at one point. */
    static final class Snapshot {
        final long epoch;
        final long seq;
        private final long[] k0;
        private final long[] k1;
        private final long[] k2;
        private final long[] k3;
        private final int[] pack;
        private final long[] offset;
        private final long[] length;
        private final long[] size;
        private final byte[] codec;
        private final int count;
        private final Map<ObjectKey, PackEntry> recent;

        private Snapshot(Builder b, Map<ObjectKey, PackEntry> recent, long epoch, long seq) {
            this.k0 = b.k0;
            this.k1 = b.k1;
            this.k2 = b.k2;
            this.k3 = b.k3;
            this.pack = b.pack;
            this.offset = b.offset;
            this.length = b.length;
            this.size = b.size;
            this.codec = b.codec;
            this.count = b.count;
            this.recent = recent;
            this.epoch = epoch;
            this.seq = seq;
        }

        int size() {
            return count + recent.size();
        }

        PackEntry find(ObjectKey key) {
            if (!recent.isEmpty()) {
                PackEntry e = recent.get(key);
                if (e != null) {
                    return e;
                }
            }
            int i = indexOf(key.word(0), key.word(1), key.word(2), key.word(3));
            if (i < 0) {
                return null;
            }
            return new PackEntry(key, pack[i], offset[i], length[i], size[i], Compression.ofCode(codec[i]));
        }

        private int indexOf(long w0, long w1, long w2, long w3) {
            int lo = 0;
            int hi = count - 1;
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
            c = Long.compareUnsigned(k1[i], w1);
            if (c != 0) {
                return c;
            }
            c = Long.compareUnsigned(k2[i], w2);
            return c != 0 ? c : Long.compareUnsigned(k3[i], w3);
        }

        private ObjectKey keyAt(int i) {
            byte[] d = new byte[32];
            LONG_BE.set(d, 0, k0[i]);
            LONG_BE.set(d, 8, k1[i]);
            LONG_BE.set(d, 16, k2[i]);
            LONG_BE.set(d, 24, k3[i]);
            return ObjectKey.ofDigest(d);
        }

        void forEach(Consumer<PackEntry> each) {
            Snapshot merged = recent.isEmpty() ? this : merge(List.of(), epoch, seq);
            for (int i = 0; i < merged.count; i++) {
                each.accept(new PackEntry(merged.keyAt(i), merged.pack[i], merged.offset[i], merged.length[i],
                        merged.size[i], Compression.ofCode(merged.codec[i])));
            }
        }

        Snapshot plus(Collection<PackEntry> added, long newEpoch, long newSeq) {
            if (recent.size() + added.size() > Math.max(MERGE_MIN, count / 8)) {
                return merge(added, newEpoch, newSeq);
            }
            Map<ObjectKey, PackEntry> r = new HashMap<>(recent);
            for (PackEntry e : added) {
                r.put(e.key(), e);
            }
            Builder same = new Builder(this);
            return new Snapshot(same, r, newEpoch, newSeq);
        }

        /** A snapshot with the recent map and {@code added} folded into the sorted arrays. */
        private Snapshot merge(Collection<PackEntry> added, long newEpoch, long newSeq) {
            Map<ObjectKey, PackEntry> all = new HashMap<>(recent);
            for (PackEntry e : added) {
                all.put(e.key(), e);
            }
            List<PackEntry> extra = new ArrayList<>(all.size());
            for (PackEntry e : all.values()) {
                if (indexOf(e.key().word(0), e.key().word(1), e.key().word(2), e.key().word(3)) < 0) {
                    extra.add(e);
                }
            }
            extra.sort(Comparator.comparing(PackEntry::key));
            Builder b = new Builder(count + extra.size());
            int i = 0;
            int j = 0;
            while (i < count || j < extra.size()) {
                if (j == extra.size() || (i < count && compareWith(i, extra.get(j).key()) < 0)) {
                    b.addFrom(this, i++);
                } else {
                    b.add(extra.get(j++));
                }
            }
            return new Snapshot(b, Map.of(), newEpoch, newSeq);
        }

        private int compareWith(int i, ObjectKey key) {
            return compare(i, key.word(0), key.word(1), key.word(2), key.word(3));
        }
    }

    /** Fills the arrays of a snapshot; rows must come in key order or be sorted by {@link #build}. */
    private static final class Builder {
        long[] k0;
        long[] k1;
        long[] k2;
        long[] k3;
        int[] pack;
        long[] offset;
        long[] length;
        long[] size;
        byte[] codec;
        int count;

        Builder() {
            this(1024);
        }

        Builder(int capacity) {
            allocate(Math.max(capacity, 16));
        }

        /** Shares the arrays of an existing snapshot (they are never written after building). */
        Builder(Snapshot s) {
            k0 = s.k0;
            k1 = s.k1;
            k2 = s.k2;
            k3 = s.k3;
            pack = s.pack;
            offset = s.offset;
            length = s.length;
            size = s.size;
            codec = s.codec;
            count = s.count;
        }

        private void allocate(int n) {
            k0 = k0 == null ? new long[n] : Arrays.copyOf(k0, n);
            k1 = k1 == null ? new long[n] : Arrays.copyOf(k1, n);
            k2 = k2 == null ? new long[n] : Arrays.copyOf(k2, n);
            k3 = k3 == null ? new long[n] : Arrays.copyOf(k3, n);
            pack = pack == null ? new int[n] : Arrays.copyOf(pack, n);
            offset = offset == null ? new long[n] : Arrays.copyOf(offset, n);
            length = length == null ? new long[n] : Arrays.copyOf(length, n);
            size = size == null ? new long[n] : Arrays.copyOf(size, n);
            codec = codec == null ? new byte[n] : Arrays.copyOf(codec, n);
        }

        private void grow() {
            if (count == k0.length) {
                allocate(k0.length * 2);
            }
        }

        void add(byte[] hash, int p, long off, long len, long sz, int c) {
            grow();
            k0[count] = (long) LONG_BE.get(hash, 0);
            k1[count] = (long) LONG_BE.get(hash, 8);
            k2[count] = (long) LONG_BE.get(hash, 16);
            k3[count] = (long) LONG_BE.get(hash, 24);
            pack[count] = p;
            offset[count] = off;
            length[count] = len;
            size[count] = sz;
            codec[count] = (byte) c;
            count++;
        }

        void add(PackEntry e) {
            add(e.key().digest(), e.pack(), e.offset(), e.length(), e.size(), e.compression().code());
        }

        void addFrom(Snapshot s, int i) {
            grow();
            k0[count] = s.k0[i];
            k1[count] = s.k1[i];
            k2[count] = s.k2[i];
            k3[count] = s.k3[i];
            pack[count] = s.pack[i];
            offset[count] = s.offset[i];
            length[count] = s.length[i];
            size[count] = s.size[i];
            codec[count] = s.codec[i];
            count++;
        }

        /** The index scan returns rows in key order (the table's primary key), so no sort is needed. */
        Snapshot build(long epoch, long seq) {
            return new Snapshot(this, Map.of(), epoch, seq);
        }
    }
}
