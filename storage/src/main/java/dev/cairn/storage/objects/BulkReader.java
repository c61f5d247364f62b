package dev.cairn.storage.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Reads many packed objects with few system calls: entries are sorted by (pack, offset) and neighbours
 * are merged into one positional read of up to {@code readBlockSize} bytes, as long as the gap between
 * them is at most {@code readGapLimit} (so a handful of far-apart objects never costs a whole-pack read).
 * Each block is read once into a direct buffer (no hidden copy through a temporary one) and each object
 * is copied out of it once.
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

    private final PackFiles packs;
    private final int gapLimit;
    private final int blockSize;
    /** Direct buffers are costly to allocate and freed only by the GC: keep them for the next call. */
    private final ConcurrentLinkedQueue<ByteBuffer> buffers = new ConcurrentLinkedQueue<>();

    BulkReader(PackFiles packs, ContainerConfig config) {
        this.packs = packs;
        this.gapLimit = config.readGapLimit();
        this.blockSize = config.readBlockSize();
    }

    static void sortByPosition(List<PackEntry> entries) {
        entries.sort((a, b) -> a.pack() != b.pack() ? Integer.compare(a.pack(), b.pack())
                : Long.compare(a.offset(), b.offset()));
    }

    /** The stored bytes of an entry in a block, as a new array. */
    static byte[] copy(PackEntry e, ByteBuffer block, int off) {
        byte[] out = new byte[(int) e.length()];
        block.get(off, out);
        return out;
    }

    /** Sorts {@code entries} in place and delivers each one's stored bytes; large ones go to {@code large}. */
    void read(List<PackEntry> entries, StoredSink sink, LargeSink large) throws IOException {
        sortByPosition(entries);
        ByteBuffer block = buffers.poll();
        if (block == null) {
            block = ByteBuffer.allocateDirect(blockSize);
        }
        try {
            readSorted(entries, sink, large, block);
        } finally {
            buffers.offer(block);
        }
    }

    private void readSorted(List<PackEntry> entries, StoredSink sink, LargeSink large, ByteBuffer block)
            throws IOException {
        List<PackEntry> group = new ArrayList<>();
        int i = 0;
        while (i < entries.size()) {
            PackEntry first = entries.get(i);
            if (first.length() > blockSize) {
                large.accept(first);
                i++;
                continue;
            }
            group.clear();
            group.add(first);
            long start = first.offset();
            long end = first.end();
            int j = i + 1;
            while (j < entries.size()) {
                PackEntry next = entries.get(j);
                if (next.pack() != first.pack() || next.offset() - end > gapLimit
                        || Math.max(end, next.end()) - start > blockSize) {
                    break;
                }
                group.add(next);
                end = Math.max(end, next.end());
                j++;
            }
            block.clear().limit((int) (end - start));
            packs.readFully(first.pack(), start, block);
            for (PackEntry e : group) {
                sink.accept(e, block, (int) (e.offset() - start));
            }
            i = j;
        }
    }
}
