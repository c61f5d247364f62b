package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Reads many packed objects with few system calls: entries are sorted by (pack, offset) and neighbours
 * are merged into one positional read of up to {@code readBlockSize} bytes, as long as the gap between
 * them is at most {@code readGapLimit} (so a handful of far-apart objects never costs a whole-pack read).
 * Each block is read once into a direct buffer (no hidden copy through a temporary one) and each object
 * is copied out of it once.
 *
 * <p>Small blocks, which is what a scattered subset of the keys makes (one object each, far from the
 * next), are not read: their objects are handed to the sink straight from a {@linkplain PackFiles#window
 * mapping} of the pack. A positional read per object costs a system call, more than copying a small
 * object, and made a read of a random tenth of the keys cost several times as much per object as a read
 * of all of them. So are blocks with many gaps (a random half of the keys), whose reads would copy the
 * gaps too. Dense large blocks, which a read of every key makes, are still read by position on the
 * read-ahead thread: on a cold page cache the kernel then reads ahead in large requests while the
 * caller works.
 */
final class BulkReader {

    /** Receives the stored bytes of one entry: {@code block} from {@code off}, valid only during the call. */
    interface StoredSink {
        void accept(PackEntry entry, ByteBuffer block, int off) throws IOException;
    }

    /** Receives an entry too large for a block; it is read on its own. */
    interface LargeSink {
        void accept(PackEntry entry) throws IOException;
    }

    /**
     * Blocks up to this size are delivered from a mapping: below it, the system call of a positional read
     * costs more than a tenth of copying the block.
     */
    static final int MAPPED_BLOCK_MAX = 64 << 10;

    /**
     * Blocks of which gaps make up at least 1/SPARSE are delivered from a mapping too, whatever their size:
     * reading them would copy the gaps (half the bytes of a block of every other object).
     */
    private static final int SPARSE = 4;

    private final Packs packs;
    private final int gapLimit;
    private final int blockSize;
    private final boolean mapped;
    /** Direct buffers are costly to allocate and freed only by the GC: keep them for the next call. */
    private final ConcurrentLinkedQueue<ByteBuffer> buffers = new ConcurrentLinkedQueue<>();

    BulkReader(Packs packs, ContainerConfig config) {
        this(packs, config.readGapLimit(), config.readBlockSize(), true);
    }

    private BulkReader(Packs packs, int gapLimit, int blockSize, boolean mapped) {
        this.packs = packs;
        this.gapLimit = gapLimit;
        this.blockSize = blockSize;
        this.mapped = mapped;
    }

    /**
     * A reader of the same packs that reads every block by position: for reading packs about to be
     * deleted, whose disk space a mapping would hold until the garbage collector unmapped it.
     */
    BulkReader unmapped() {
        return new BulkReader(packs, gapLimit, blockSize, false);
    }

    private static final int INDEX_BITS = 20;

    /**
     * Sorts entries by (pack, offset). Within a pack the order comes from sorting primitive longs
     * (offset and list position packed into one value): several times faster than comparing objects
     * scattered over the heap.
     */
    static void sortByPosition(List<PackEntry> entries) {
        if (entries.size() < 2) {
            return;
        }
        Map<Integer, List<PackEntry>> byPack = new TreeMap<>();
        for (PackEntry e : entries) {
            byPack.computeIfAbsent(e.pack(), p -> new ArrayList<>()).add(e);
        }
        int out = 0;
        for (List<PackEntry> run : byPack.values()) {
            for (PackEntry e : sortedByOffset(run)) {
                entries.set(out++, e);
            }
        }
    }

    private static List<PackEntry> sortedByOffset(List<PackEntry> run) {
        long maxOffset = 0;
        for (PackEntry e : run) {
            maxOffset = Math.max(maxOffset, e.offset());
        }
        if (run.size() >= (1 << INDEX_BITS) || maxOffset >= (1L << (63 - INDEX_BITS))) {
            run.sort((a, b) -> Long.compare(a.offset(), b.offset()));
            return run;
        }
        long[] order = new long[run.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = (run.get(i).offset() << INDEX_BITS) | i;
        }
        Arrays.sort(order);
        List<PackEntry> sorted = new ArrayList<>(order.length);
        for (long o : order) {
            sorted.add(run.get((int) (o & ((1 << INDEX_BITS) - 1))));
        }
        return sorted;
    }

    /** The stored bytes of an entry in a block, as a new array. */
    static byte[] copy(PackEntry e, ByteBuffer block, int off) {
        byte[] out = new byte[(int) e.length()];
        block.get(off, out);
        return out;
    }

    /**
     * A run of neighbouring entries read with one positional read, to {@code at} in its batch's buffer; or,
     * when {@code window} is set, delivered from that mapping without a read.
     */
    private record Block(int pack, long start, int length, List<PackEntry> entries, int at, PackFiles.Window window) {}

    /** Blocks that fill one buffer together: the unit handed from the read-ahead thread to the caller. */
    private record Batch(List<Block> blocks) {}

    /**
     * Delivers the stored bytes of {@code entries}, which the caller sorted with {@link #sortByPosition};
     * large ones go to {@code large}. A reader thread fills the next blocks while the caller's thread slices the current one, so the disk
     * reads overlap the copying and the consumer's own work.
     */
    void read(List<PackEntry> entries, StoredSink sink, LargeSink large) throws IOException {
        List<Batch> batches = new ArrayList<>();
        List<PackEntry> larges = new ArrayList<>();
        plan(entries, batches, larges);
        if (batches.size() <= 1) {
            ByteBuffer buf = take();
            try {
                for (Batch b : batches) {
                    fill(b, buf);
                    deliver(b, buf, sink);
                }
            } finally {
                buffers.offer(buf);
            }
        } else {
            readAhead(batches, sink);
        }
        for (PackEntry e : larges) {
            large.accept(e);
        }
    }

    private void plan(List<PackEntry> entries, List<Batch> batches, List<PackEntry> larges) throws IOException {
        List<Block> blocks = new ArrayList<>();
        int used = 0;
        PackFiles.Window window = null;
        int i = 0;
        while (i < entries.size()) {
            PackEntry first = entries.get(i);
            if (first.length() > blockSize) {
                larges.add(first);
                i++;
                continue;
            }
            long start = first.offset();
            long end = first.end();
            long gaps = 0;
            int j = i + 1;
            while (j < entries.size()) {
                PackEntry next = entries.get(j);
                if (next.pack() != first.pack()
                        || next.offset() - end > gapLimit
                        || Math.max(end, next.end()) - start > blockSize) {
                    break;
                }
                gaps += Math.max(0, next.offset() - end);
                end = Math.max(end, next.end());
                j++;
            }
            int length = (int) (end - start);
            if (mapped && (length <= MAPPED_BLOCK_MAX || gaps >= length / SPARSE)) {
                if (window == null || !window.holds(first.pack(), start, end)) {
                    window = packs.window(first.pack(), start, end);
                }
                if (window != null) {
                    blocks.add(new Block(first.pack(), start, length, entries.subList(i, j), -1, window));
                    i = j;
                    continue;
                }
            }
            if (used + length > blockSize) {
                batches.add(new Batch(blocks));
                blocks = new ArrayList<>();
                used = 0;
            }
            blocks.add(new Block(first.pack(), start, length, entries.subList(i, j), used, null));
            used += length;
            i = j;
        }
        if (!blocks.isEmpty()) {
            batches.add(new Batch(blocks));
        }
    }

    private ByteBuffer take() {
        ByteBuffer b = buffers.poll();
        return b != null ? b : ByteBuffer.allocateDirect(blockSize);
    }

    private void fill(Batch batch, ByteBuffer buf) throws IOException {
        for (Block b : batch.blocks) {
            if (b.window == null) {
                buf.limit(b.at + b.length).position(b.at);
                packs.readFully(b.pack, b.start, buf);
            }
        }
    }

    private static void deliver(Batch batch, ByteBuffer buf, StoredSink sink) throws IOException {
        buf.clear();
        for (Block b : batch.blocks) {
            PackFiles.Window w = b.window;
            for (PackEntry e : b.entries) {
                if (w != null) {
                    sink.accept(e, w.buffer(), (int) (e.offset() - w.start()));
                } else {
                    sink.accept(e, buf, b.at + (int) (e.offset() - b.start));
                }
            }
        }
    }

    private static final Object END = new Object();

    private void readAhead(List<Batch> blocks, StoredSink sink) throws IOException {
        // Three buffers: one being sliced, up to two filled ahead.
        BlockingQueue<ByteBuffer> free = new ArrayBlockingQueue<>(3);
        for (int i = 0; i < 3; i++) {
            free.add(take());
        }
        BlockingQueue<Object> filled = new ArrayBlockingQueue<>(4);
        AtomicBoolean stop = new AtomicBoolean();
        // Never interrupted: an interrupt during a FileChannel read would close the shared pack channel.
        Thread reader = Thread.ofPlatform().name("cairn-bulk-read").daemon().start(() -> {
            try {
                for (Batch b : blocks) {
                    ByteBuffer buf = null;
                    while (buf == null && !stop.get()) {
                        buf = free.poll(50, TimeUnit.MILLISECONDS);
                    }
                    if (buf == null) {
                        return;
                    }
                    fill(b, buf);
                    filled.put(buf);
                }
                filled.put(END);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (IOException | RuntimeException e) {
                filled.offer(e);
            }
        });
        try {
            for (Batch b : blocks) {
                Object next = filled.take();
                if (next instanceof IOException e) {
                    throw e;
                }
                if (next instanceof RuntimeException e) {
                    throw e;
                }
                ByteBuffer buf = (ByteBuffer) next;
                deliver(b, buf, sink);
                free.put(buf);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted during a bulk read");
        } finally {
            stop.set(true);
            try {
                reader.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (Object o : filled) {
                if (o instanceof ByteBuffer buf) {
                    free.offer(buf);
                }
            }
            for (ByteBuffer buf : free) {
                buffers.offer(buf);
            }
        }
    }
}
