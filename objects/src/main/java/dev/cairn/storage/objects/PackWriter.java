package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;

/**
 * Appends objects to packs under the pack lock, as one all-or-nothing batch.
 *
 * <p>Crash safety without a journal: the index records how many bytes of each pack are committed. Bytes
 * are appended past that mark, synced, and only then are the index rows and the new mark committed in one
 * SQLite transaction. A crash before the commit leaves bytes past the mark that nobody points at; the next
 * writer truncates them (and deletes pack files the index does not know) before it appends.
 */
final class PackWriter implements AutoCloseable {

    private static final int BUFFER = 4 << 20;
    private static final int CHUNK = 64 << 10;

    private final PackLock.Held lock;
    private final PackIndex index;
    private final IndexTransaction tx;
    /** The index as it was when the lock was taken; nobody else can change it while we hold the lock. */
    private final IndexCache.Snapshot before;

    private final IndexCache cache;
    private final Packs packs;
    private final ContainerConfig config;
    private final Compressor compressor = new Compressor();
    /** Committed size of every pack this batch touched, to roll back to; -1 for packs it created. */
    private final Map<Integer, Long> rollbackSizes = new HashMap<>();
    /** Sizes of the packs published before the commit (a full pack of a bucket goes up at once), by id. */
    private final Map<Integer, Long> publishedSizes = new HashMap<>();

    private final Map<Integer, FileChannel> channels = new LinkedHashMap<>();
    private Map<ObjectKey, PackEntry> added = new HashMap<>();
    private final List<PackEntry> addedInOrder = new ArrayList<>();
    /** Keys marked pending deletion that this batch stores again: unmarked at the commit. */
    private final Set<ObjectKey> revived = new HashSet<>();
    /** Direct, so a write is one copy into the kernel rather than two (heap buffers go through a hidden
     * temporary direct one). */
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER);
    /** A streamed object's chunks, one buffer for every object: a fresh one each was a fifth of what an import allocated. */
    private final byte[] chunk = new byte[CHUNK];

    private int buffered;
    private int pack = -1;
    private FileChannel ch;
    /** End of the current pack file as written, and with the buffered bytes: pos == written + buffered. */
    private long written;

    private long pos;
    private int nextNewPack;
    private boolean committed;

    private PackWriter(PackLock.Held lock, PackIndex index, IndexCache cache, Packs packs, ContainerConfig config)
            throws IOException {
        this.lock = lock;
        this.index = index;
        this.cache = cache;
        this.packs = packs;
        this.config = config;
        this.before = cache.refresh();
        this.tx = index.begin();
    }

    /**
     * Takes the lock, repairs what an interrupted writer left, and opens a batch. With {@code freshPacks}
     * every object goes to new pack files (repack); otherwise the last pack is continued while it is below
     * the size target.
     */
    static PackWriter open(
            PackLock lock,
            String operation,
            PackIndex index,
            IndexCache cache,
            Packs packs,
            ContainerConfig config,
            boolean freshPacks)
            throws IOException {
        PackLock.Held held = lock.acquire(operation);
        PackWriter w = null;
        try {
            Map<Integer, Long> committed = index.packSizes();
            packs.repairLeftovers(committed);
            Map<Integer, Long> onDisk = packs.stored();
            int maxId = -1;
            for (int id : committed.keySet()) {
                maxId = Math.max(maxId, id);
            }
            for (int id : onDisk.keySet()) {
                maxId = Math.max(maxId, id);
            }
            w = new PackWriter(held, index, cache, packs, config);
            w.nextNewPack = Math.max(maxId + 1, index.nextPackId());
            if (!freshPacks
                    && packs.appendable()
                    && maxId >= 0
                    && committed.containsKey(maxId)
                    && committed.get(maxId) < config.packSizeTarget()) {
                w.switchTo(maxId, committed.get(maxId));
            }
            return w;
        } catch (IOException | RuntimeException e) {
            if (w != null) {
                w.close();
            } else {
                held.close();
            }
            throw e;
        }
    }

    private void switchTo(int id, long committedSize) throws IOException {
        flush();
        FileChannel c = channels.get(id);
        if (c == null) {
            c = packs.openForWrite(id);
            channels.put(id, c);
            rollbackSizes.putIfAbsent(id, committedSize);
        }
        pack = id;
        ch = c;
        written = committedSize < 0 ? 0 : committedSize;
        pos = written;
    }

    private void startPackIfFull() throws IOException {
        if (pack < 0 || pos >= config.packSizeTarget()) {
            if (pack >= 0 && !packs.appendable()) {
                publishFull();
            }
            switchTo(nextNewPack++, -1);
        }
    }

    /**
     * Publishes the current, full pack now rather than at the commit, where packs cannot be appended to
     * (a bucket): it is written whole once, and its local copy goes, so a large batch keeps one pack's
     * worth of local files at a time. Nothing points at it until the commit.
     */
    private void publishFull() throws IOException {
        flush();
        packs.publish(Map.of(pack, ch), Set.of(pack), config.syncPacks());
        publishedSizes.put(pack, ch.size());
        channels.remove(pack);
        packs.finish(pack, ch);
    }

    /** The index as it was when this writer took the lock: current until this writer commits. */
    IndexCache.Snapshot indexAtStart() {
        return before;
    }

    private boolean known(ObjectKey key) {
        if (added.containsKey(key)) {
            return true;
        }
        if (before.marked(key)) {
            // Stored again while a sweep waits to delete it: the commit takes the mark back (under the lock a
            // sweep needs too), so bytes already packed serve, and a marked loose object is packed anew.
            revived.add(key);
        }
        return before.find(key) != null;
    }

    /** Adds one object held in memory; returns its key. Content already in the container is not stored again. */
    ObjectKey add(byte[] content, Compression compression) throws IOException {
        ObjectKey key = Sha256.keyOf(content);
        if (!known(key)) {
            addKnown(key, content, compression);
        }
        return key;
    }

    /** Appends a prepared object; does not index it. */
    PackEntry appendStored(PreparedObject p) throws IOException {
        return appendStored(p.key(), p.stored(), 0, p.length(), p.size(), p.compression());
    }

    /**
     * Adds many objects held in memory; returns their keys in order. Hashing and compressing run on
     * several threads ahead of the (sequential) appends.
     */
    List<ObjectKey> addAll(List<byte[]> contents, Compression compression) throws IOException {
        if (added.isEmpty()) {
            added = HashMap.newHashMap(contents.size()); // no rehashing while a large batch comes in
        }
        int batch = 2048;
        List<OrderedWork.Task<PreparedObject[]>> tasks = new ArrayList<>();
        for (int i = 0; i < contents.size(); i += batch) {
            List<byte[]> part = contents.subList(i, Math.min(contents.size(), i + batch));
            tasks.add(() -> PreparedObject.hashAndCompress(part, compression));
        }
        List<ObjectKey> keys = new ArrayList<>(contents.size());
        OrderedWork.run(tasks, 4, prepared -> {
            for (PreparedObject p : prepared) {
                keys.add(p.key());
                if (!known(p.key())) {
                    record(appendStored(p));
                }
            }
        });
        return keys;
    }

    /** Adds content whose key the caller computed (and checked). */
    void addKnown(ObjectKey key, byte[] content, Compression compression) throws IOException {
        record(appendStored(PreparedObject.of(key, content, compression, compressor, false)));
    }

    /** Writes stored (possibly compressed) bytes as the object {@code key}; does not index them. */
    PackEntry appendStored(ObjectKey key, byte[] stored, int off, int len, long size, Compression compression)
            throws IOException {
        startPackIfFull();
        long offset = pos;
        if (len > BUFFER - buffered) {
            flush();
        }
        if (len > BUFFER) {
            writeAtEnd(ByteBuffer.wrap(stored, off, len));
        } else {
            buffer.put(buffered, stored, off, len);
            buffered += len;
        }
        pos += len;
        return new PackEntry(key, pack, offset, len, size, compression);
    }

    /** Copies the stored bytes of an object (a repack of a large one) from a stream; does not index them. */
    PackEntry appendStored(ObjectKey key, InputStream stored, long size, Compression compression) throws IOException {
        startPackIfFull();
        flush();
        long start = pos;
        stored.transferTo(new ChannelSink());
        return new PackEntry(key, pack, start, pos - start, size, compression);
    }

    /** Streams one object of any size into the pack in bounded memory; returns its key. */
    ObjectKey add(InputStream in, Compression compression) throws IOException {
        startPackIfFull();
        flush();
        long start = pos;
        int first = in.readNBytes(chunk, 0, CHUNK);
        // Compression is decided on the first chunk: a stream that does not shrink there is stored raw.
        Compression used = compression != Compression.NONE && compressor.compress(compression, chunk, 0, first) != null
                ? compression
                : Compression.NONE;
        MessageDigest digest = Sha256.newDigest();
        long size = 0;
        ChannelSink sink = new ChannelSink();
        try (OutputStream out = Compressor.compressing(used, sink)) {
            int n = first;
            while (n > 0) {
                digest.update(chunk, 0, n);
                out.write(chunk, 0, n);
                size += n;
                n = in.readNBytes(chunk, 0, CHUNK);
            }
        }
        ObjectKey key = ObjectKey.ofDigest(digest.digest());
        if (known(key)) {
            ch.truncate(start); // already stored: take the bytes back rather than leave dead ones
            written = start;
            pos = start;
        } else {
            record(new PackEntry(key, pack, start, pos - start, size, used));
        }
        return key;
    }

    private void record(PackEntry e) {
        added.put(e.key(), e);
        addedInOrder.add(e);
    }

    private void flush() throws IOException {
        if (buffered > 0) {
            int n = buffered;
            buffered = 0;
            writeAtEnd(buffer.clear().limit(n));
            buffer.clear(); // absolute puts check against the limit
        }
    }

    /** Writes at the end of the current pack file; the buffer must have been flushed (or be what is written). */
    private void writeAtEnd(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            written += ch.write(b, written);
        }
    }

    /** Makes the batch durable and visible: sync the packs, then commit the index segment and pack sizes. */
    List<PackEntry> commit() throws IOException {
        flush();
        // The pack fsync and the preparation of the index segment overlap; the commit waits for both, so the
        // index never points at bytes that are not on disk.
        Future<?> synced = syncInBackground();
        List<PackEntry> sorted = KeyOrder.sorted(addedInOrder);
        if (index.state().segments() + 1 > PackIndex.COMPACT_AT) {
            // Many small batches make many segments; fold them into a few so loading stays one big read.
            tx.replaceAll(before.rewritten(Set.of(), Map.of(), sorted));
        } else {
            tx.addSegment(sorted);
        }
        await(synced);
        recordPacks();
        tx.unmark(revived);
        tx.commit();
        committed = true;
        cache.addCommitted(sorted, before.seq, index.state());
        return addedInOrder;
    }

    /** Commits relocations of existing objects (repack) instead of new ones; the old packs are dropped. */
    void commitRelocation(List<PackEntry> moved, List<Integer> droppedPacks) throws IOException {
        syncAndRecordPacks();
        Map<ObjectKey, PackEntry> byKey = new HashMap<>();
        for (PackEntry e : moved) {
            byKey.put(e.key(), e);
        }
        tx.replaceAll(before.rewritten(Set.of(), byKey, List.of()));
        for (int id : droppedPacks) {
            tx.dropPack(id);
        }
        tx.commit();
        committed = true;
        cache.invalidate();
    }

    private void syncAndRecordPacks() throws IOException {
        flush();
        syncPacks();
        recordPacks();
    }

    private void syncPacks() throws IOException {
        Set<Integer> created = new HashSet<>();
        for (int id : channels.keySet()) {
            if (rollbackSizes.get(id) < 0) {
                created.add(id); // a new pack's name must survive a crash too
            }
        }
        packs.publish(channels, created, config.syncPacks());
    }

    private void recordPacks() throws IOException {
        for (Map.Entry<Integer, FileChannel> c : channels.entrySet()) {
            tx.setPackSize(c.getKey(), c.getValue().size());
        }
        for (Map.Entry<Integer, Long> p : publishedSizes.entrySet()) {
            tx.setPackSize(p.getKey(), p.getValue());
        }
        tx.reservePackIds(nextNewPack);
    }

    private Future<?> syncInBackground() {
        FutureTask<Void> task = new FutureTask<>(() -> {
            syncPacks();
            return null;
        });
        Thread.ofPlatform().name("cairn-pack-sync").daemon().start(task);
        return task;
    }

    private static void await(Future<?> f) throws IOException {
        try {
            f.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while syncing packs");
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    /** Without a commit, undoes every append: truncates touched packs, deletes created ones. */
    @Override
    public void close() throws IOException {
        try {
            if (!committed) {
                tx.close();
                for (Map.Entry<Integer, Long> r : rollbackSizes.entrySet()) {
                    packs.discard(r.getKey(), channels.remove(r.getKey()), r.getValue());
                }
            }
            for (Map.Entry<Integer, FileChannel> c : channels.entrySet()) {
                packs.finish(c.getKey(), c.getValue());
            }
            compressor.close();
        } finally {
            lock.close();
        }
    }

    /** An output stream appending to the current pack, used for streamed objects. */
    private final class ChannelSink extends OutputStream {
        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            writeAtEnd(ByteBuffer.wrap(b, off, len));
            pos = written;
        }
    }
}
