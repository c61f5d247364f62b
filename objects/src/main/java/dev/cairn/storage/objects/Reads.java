package dev.cairn.storage.objects;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.ClosedChannelException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Every read path: single objects, bulk reads, existence and metadata. Packs are looked up first (in the
 * cache), then loose files, then the packs again after a refresh, because a concurrent packer may have
 * packed the object and a cleaner removed its loose copy in between.
 */
final class Reads {

    private final IndexCache cache;
    private final Packs packs;
    private final LooseObjects loose;
    private final BulkReader bulk;

    Reads(ContainerParts parts) {
        this.cache = parts.cache();
        this.packs = parts.packs();
        this.loose = parts.loose();
        this.bulk = parts.bulkReader();
    }

    byte[] get(ObjectKey key) throws IOException {
        PackEntry e = cache.find(key);
        if (e != null) {
            return readPacked(e);
        }
        byte[] content = loose.read(key);
        if (content != null) {
            return content;
        }
        e = cache.findFresh(key);
        if (e == null) {
            throw new ObjectNotFoundException(key);
        }
        return readPacked(e);
    }

    private byte[] readPacked(PackEntry e) throws IOException {
        byte[] stored;
        try {
            stored = packs.read(e);
        } catch (NoSuchFileException | ClosedChannelException gone) {
            // a repack moved it since the cache was loaded: look again
            PackEntry moved = cache.findFresh(e.key());
            if (moved == null) {
                throw new ObjectNotFoundException(e.key());
            }
            stored = packs.read(moved);
            e = moved;
        }
        if (e.compression() == Compression.NONE) {
            return stored;
        }
        try (Decompressor d = new Decompressor()) {
            return d.decompress(e.key(), e.compression(), stored, 0, stored.length, e.size());
        }
    }

    InputStream open(ObjectKey key) throws IOException {
        PackEntry e = cache.find(key);
        if (e != null) {
            return openPacked(e);
        }
        InputStream in = loose.open(key);
        if (in != null) {
            return in;
        }
        e = cache.findFresh(key);
        if (e == null) {
            throw new ObjectNotFoundException(key);
        }
        return openPacked(e);
    }

    /** As {@link #open}: the pack a cache knows, else the loose file, else the pack a fresh cache knows. */
    Optional<ObjectRegion> region(ObjectKey key) throws IOException {
        PackEntry e = cache.find(key);
        if (e == null) {
            long size = loose.size(key);
            if (size >= 0) {
                return loose.file(key).map(f -> new ObjectRegion(f, 0, size));
            }
            e = cache.findFresh(key);
            if (e == null) {
                throw new ObjectNotFoundException(key);
            }
        }
        PackEntry packed = e;
        return e.compression() == Compression.NONE
                ? packs.file(e.pack()).map(f -> new ObjectRegion(f, packed.offset(), packed.length()))
                : Optional.empty();
    }

    /** A decoded, size-checked stream of a packed object, read by position (bounded memory). */
    private InputStream openPacked(PackEntry e) throws IOException {
        return new CheckedStream(e, Decompressor.decompressing(e.compression(), packs.stream(e)));
    }

    /** Bulk read as bytes; throws for missing keys after every found object was delivered. */
    void getAll(Collection<ObjectKey> keys, ObjectConsumer consumer) throws IOException {
        Plan plan = plan(keys);
        BulkReader.LargeSink whole = e -> consumer.accept(e.key(), readPacked(e));
        try (Decompressor d = new Decompressor()) {
            bulk.read(
                    plan.packed,
                    (e, block, off) -> {
                        byte[] stored = BulkReader.copy(e, block, off);
                        consumer.accept(
                                e.key(),
                                e.compression() == Compression.NONE
                                        ? stored
                                        : d.decompress(e.key(), e.compression(), stored, 0, stored.length, e.size()));
                    },
                    whole);
        }
        deliverUnpacked(
                plan.loose,
                k -> {
                    byte[] content = loose.read(k);
                    if (content == null) {
                        return false;
                    }
                    consumer.accept(k, content);
                    return true;
                },
                whole);
    }

    /** Bulk read as streams, for objects of any size. */
    void streamAll(Collection<ObjectKey> keys, ObjectStreamConsumer consumer) throws IOException {
        Plan plan = plan(keys);
        BulkReader.LargeSink streamed = e -> {
            try (InputStream in = openPacked(e)) {
                consumer.accept(e.key(), e.size(), in);
            }
        };
        bulk.read(
                plan.packed,
                (e, block, off) -> {
                    InputStream raw = new ByteArrayInputStream(BulkReader.copy(e, block, off));
                    try (InputStream in = new CheckedStream(e, Decompressor.decompressing(e.compression(), raw))) {
                        consumer.accept(e.key(), e.size(), in);
                    }
                },
                streamed);
        deliverUnpacked(
                plan.loose,
                k -> {
                    long size = loose.size(k);
                    InputStream in = size < 0 ? null : loose.open(k);
                    if (in == null) {
                        return false;
                    }
                    try (in) {
                        consumer.accept(k, size, in);
                    }
                    return true;
                },
                streamed);
    }

    /** Delivers one loose object if its file exists; says whether it did. */
    private interface LooseSink {
        boolean accept(ObjectKey key) throws IOException;
    }

    /**
     * Delivers the keys that were not packed when the read was planned: from their loose file, else from
     * the pack a concurrent packer (and cleaner) moved them to; then reports those found nowhere.
     */
    private void deliverUnpacked(List<ObjectKey> keys, LooseSink fromLoose, BulkReader.LargeSink fromPack)
            throws IOException {
        List<ObjectKey> missing = new ArrayList<>();
        for (ObjectKey k : keys) {
            if (fromLoose.accept(k)) {
                continue;
            }
            PackEntry e = cache.findFresh(k);
            if (e == null) {
                missing.add(k);
            } else {
                fromPack.accept(e);
            }
        }
        if (!missing.isEmpty()) {
            throw new ObjectNotFoundException(missing);
        }
    }

    /**
     * Packed entries (from a fresh cache) and the rest, which may be loose. Keys asked for twice are
     * delivered once: packed duplicates are dropped after the sort by position (where they sit side by
     * side), which spares a hash set of every key; the few unpacked ones go through a set.
     */
    private Plan plan(Collection<ObjectKey> keys) throws IOException {
        IndexCache.Snapshot s = cache.refresh();
        Plan plan = new Plan();
        Set<ObjectKey> unpacked = new HashSet<>();
        List<ObjectKey> asked = keys instanceof List<ObjectKey> list ? list : new ArrayList<>(keys);
        PackEntry[] found = s.findAll(asked);
        for (int i = 0; i < found.length; i++) {
            if (found[i] != null) {
                plan.packed.add(found[i]);
            } else if (unpacked.add(asked.get(i))) {
                plan.loose.add(asked.get(i));
            }
        }
        BulkReader.sortByPosition(plan.packed);
        dropAdjacentDuplicates(plan.packed);
        return plan;
    }

    /** Removes repeated keys from entries sorted by position: equal keys share their position. */
    private static void dropAdjacentDuplicates(List<PackEntry> sorted) {
        int out = 0;
        for (int i = 0; i < sorted.size(); i++) {
            PackEntry e = sorted.get(i);
            boolean repeated = false;
            // entries at one position are one object, or zero-length objects beside it: a short run
            for (int j = out - 1;
                    j >= 0
                            && sorted.get(j).offset() == e.offset()
                            && sorted.get(j).pack() == e.pack();
                    j--) {
                if (sorted.get(j).key().equals(e.key())) {
                    repeated = true;
                    break;
                }
            }
            if (!repeated) {
                sorted.set(out++, e);
            }
        }
        sorted.subList(out, sorted.size()).clear();
    }

    private static final class Plan {
        final List<PackEntry> packed = new ArrayList<>();
        final List<ObjectKey> loose = new ArrayList<>();
    }

    boolean contains(ObjectKey key) throws IOException {
        return cache.find(key) != null || loose.exists(key) || cache.findFresh(key) != null;
    }

    Set<ObjectKey> existing(Collection<ObjectKey> keys) throws IOException {
        IndexCache.Snapshot s = cache.refresh();
        Set<ObjectKey> found = new LinkedHashSet<>();
        for (ObjectKey k : keys) {
            if (s.find(k) != null || loose.exists(k)) {
                found.add(k);
            }
        }
        return found;
    }

    ObjectMeta meta(ObjectKey key) throws IOException {
        Map<ObjectKey, ObjectMeta> m = metas(List.of(key));
        ObjectMeta meta = m.get(key);
        if (meta == null) {
            throw new ObjectNotFoundException(key);
        }
        return meta;
    }

    /** Metadata of the keys that exist; missing keys are left out of the map. */
    Map<ObjectKey, ObjectMeta> metas(Collection<ObjectKey> keys) throws IOException {
        IndexCache.Snapshot s = cache.refresh();
        Map<ObjectKey, ObjectMeta> out = new HashMap<>();
        for (ObjectKey k : keys) {
            PackEntry e = s.find(k);
            if (e != null) {
                out.put(k, ObjectMeta.packed(e));
            } else {
                long size = loose.size(k);
                if (size >= 0) {
                    out.put(k, ObjectMeta.loose(k, size));
                }
            }
        }
        return out;
    }

    /** Every key once: packed ones in key order, then loose ones not packed. */
    void forEachKey(Consumer<ObjectKey> each) throws IOException {
        IndexCache.Snapshot s = cache.refresh();
        s.forEach(e -> each.accept(e.key()));
        loose.forEach(
                k -> {
                    if (s.find(k) == null) {
                        each.accept(k);
                    }
                },
                malformed -> {});
    }
}
