package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The operations that move or remove objects: packing loose objects, cleaning, repacking and deleting.
 * Each holds the pack lock for its whole run, so they never overlap one another (in any process); loose
 * writers and readers go on meanwhile. Loose objects marked pending deletion are neither packed nor
 * cleaned: their loose copies are what a {@link Sweep} looks at to tell whether they were stored again.
 */
final class Maintenance {

    /** Loose files at most this large are read whole (and in parallel); larger ones are streamed. */
    private static final int WHOLE_READ_LIMIT = 1 << 20;
    /** A read-ahead batch holds at most this many bytes; with the window, this bounds packing's memory. */
    private static final int BATCH_BYTES = 2 << 20;

    private static final int IO_BATCH = 256;
    /**
     * Threads for file system work (reading, unlinking many small files): it waits on the file system far
     * more than it computes. Cleaning many loose objects was fastest with this many: fewer leave the disk's
     * queue short, more only contend in the kernel (docs/performance.md, clean_storage).
     */
    private static final int IO_THREADS = 32;

    private final ContainerParts parts;

    Maintenance(ContainerParts parts) {
        this.parts = parts;
    }

    PackingReport packAllLoose(Compression compression) throws IOException {
        try (PackWriter w = parts.openWriter("pack loose objects", false)) {
            IndexCache.Snapshot s = w.indexAtStart();
            List<Listed> keys = new ArrayList<>();
            // sizes as the listing gives them: a bucket's does, which saves a HEAD per object
            parts.loose().forEachSized((k, size) -> {
                if (s.find(k) == null && !s.marked(k)) {
                    keys.add(new Listed(k, size));
                }
            });
            keys.sort(Comparator.comparing(Listed::key));
            List<ObjectKey> damaged = new ArrayList<>();
            // Opening and reading many small files is most of the work, and mostly waits on the file
            // system: several threads do it ahead of the (sequential) appends.
            List<OrderedWork.Task<LooseRead[]>> reads = new ArrayList<>();
            for (int i = 0; i < keys.size(); i += IO_BATCH) {
                List<Listed> batch = keys.subList(i, Math.min(keys.size(), i + IO_BATCH));
                reads.add(() -> readBatch(batch));
            }
            int[] packed = {0};
            long[] bytes = {0};
            OrderedWork.run(reads, IO_THREADS, IO_THREADS, batch -> {
                for (LooseRead r : batch) {
                    if (r == null) {
                        continue; // removed meanwhile (deleted, or packed and cleaned by someone else)
                    }
                    if (r.content == null) {
                        try (InputStream in = parts.loose().open(r.key)) {
                            if (in == null) {
                                continue; // removed meanwhile
                            }
                            ObjectKey actual = w.add(in, compression);
                            if (!actual.equals(r.key)) {
                                damaged.add(r.key);
                                continue;
                            }
                        }
                    } else if (!r.intact) {
                        damaged.add(r.key);
                        continue;
                    } else {
                        w.addKnown(r.key, r.content, compression);
                    }
                    bytes[0] += r.size;
                    packed[0]++;
                }
            });
            w.commit();
            return new PackingReport(packed[0], bytes[0], damaged);
        }
    }

    /** A loose object as listed: its size, or -1 when the listing does not tell. */
    private record Listed(ObjectKey key, long size) {}

    private record LooseRead(ObjectKey key, byte[] content, boolean intact, long size) {}

    private LooseRead[] readBatch(List<Listed> batch) throws IOException {
        LooseRead[] out = new LooseRead[batch.size()];
        long held = 0;
        for (int i = 0; i < out.length; i++) {
            ObjectKey k = batch.get(i).key();
            // the size only chooses between a whole read and a stream; an object gone since reads as null
            long size = batch.get(i).size() >= 0
                    ? batch.get(i).size()
                    : parts.loose().size(k);
            if (size < 0) {
                continue;
            }
            if (size > WHOLE_READ_LIMIT || held > BATCH_BYTES) {
                // left for the writer to stream: keeps what waits in memory bounded
                out[i] = new LooseRead(k, null, true, size);
                continue;
            }
            byte[] content = parts.loose().read(k);
            if (content != null) {
                held += content.length;
                out[i] = new LooseRead(k, content, Sha256.keyOf(content).equals(k), content.length);
            }
        }
        return out;
    }

    CleaningReport cleanStorage(boolean vacuum) throws IOException {
        try (PackLock.Held held = parts.lock().acquire("clean the storage")) {
            parts.packs().repairLeftovers(parts.index().packSizes());
            IndexCache.Snapshot s = parts.cache().refresh();
            int deleted = parts.loose().deleteWhere(k -> s.find(k) != null && !s.marked(k), IO_THREADS);
            int leftovers = parts.sandbox().cleanLeftovers();
            if (vacuum) {
                parts.index().vacuum();
            }
            parts.index().checkpoint(); // a container in a bucket: where new hosts start, and the log pruned
            return new CleaningReport(deleted, leftovers, vacuum);
        }
    }

    int delete(Collection<ObjectKey> keys) throws IOException {
        try (PackLock.Held held = parts.lock().acquire("delete objects")) {
            IndexCache.Snapshot s = parts.cache().refresh();
            int existed = 0;
            List<ObjectKey> marked = new ArrayList<>();
            for (ObjectKey k : keys) {
                if (s.find(k) != null || parts.loose().exists(k)) {
                    existed++;
                }
                if (s.marked(k)) {
                    marked.add(k);
                }
            }
            try (IndexTransaction tx = parts.index().begin()) {
                tx.replaceAll(s.rewritten(Set.copyOf(keys), Map.of(), List.of()));
                tx.unmark(marked);
                tx.commit();
            }
            parts.cache().invalidate();
            for (ObjectKey k : keys) {
                parts.loose().delete(k);
            }
            return existed;
        }
    }

    /**
     * Copies the live objects of packs with dead bytes (or of every pack, when {@code target} asks for a
     * change of compression) into new packs, then deletes the old ones. Objects larger than the read block
     * keep their stored form.
     */
    RepackReport repack(Compression target) throws IOException {
        try (PackWriter w = parts.openWriter("repack", true)) {
            Map<Integer, Long> sizes = parts.index().packSizes();
            Map<Integer, List<PackEntry>> byPack = new HashMap<>();
            Map<Integer, Long> live = new HashMap<>();
            w.indexAtStart().forEach(e -> {
                byPack.computeIfAbsent(e.pack(), p -> new ArrayList<>()).add(e);
                live.merge(e.pack(), e.length(), Long::sum);
            });
            List<Integer> rewrite = new ArrayList<>();
            long before = 0;
            for (Map.Entry<Integer, Long> p : sizes.entrySet()) {
                boolean dead = p.getValue() > live.getOrDefault(p.getKey(), 0L);
                if (target != null || dead) {
                    rewrite.add(p.getKey());
                    before += p.getValue();
                }
            }
            List<PackEntry> moved = new ArrayList<>();
            try (Decompressor d = new Decompressor();
                    Compressor c = new Compressor()) {
                for (int id : rewrite) {
                    List<PackEntry> entries = byPack.getOrDefault(id, new ArrayList<>());
                    BulkReader.sortByPosition(entries);
                    parts.bulkReader()
                            .unmapped()
                            .read(
                                    entries,
                                    (e, block, off) -> {
                                        moved.add(copy(w, e, block, off, target, d, c));
                                    },
                                    e -> {
                                        try (InputStream stored = parts.packs().stream(e)) {
                                            moved.add(w.appendStored(e.key(), stored, e.size(), e.compression()));
                                        }
                                    });
                }
            }
            w.commitRelocation(moved, rewrite);
            for (int id : rewrite) {
                parts.packs().delete(id);
            }
            long after = moved.stream().mapToLong(PackEntry::length).sum();
            return new RepackReport(rewrite.size(), moved.size(), before, after);
        }
    }

    /** Copies one object into the new packs, recompressing it when {@code target} asks for a change. */
    private static PackEntry copy(
            PackWriter w, PackEntry e, ByteBuffer block, int off, Compression target, Decompressor d, Compressor c)
            throws IOException {
        int len = (int) e.length();
        byte[] stored = BulkReader.copy(e, block, off);
        if (target == null || target == e.compression()) {
            return w.appendStored(e.key(), stored, 0, len, e.size(), e.compression());
        }
        byte[] raw = e.compression() == Compression.NONE
                ? stored
                : d.decompress(e.key(), e.compression(), stored, 0, len, e.size());
        return w.appendStored(PreparedObject.of(e.key(), raw, target, c, false));
    }
}
