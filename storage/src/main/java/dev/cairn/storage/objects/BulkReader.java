package dev.cairn.storage.objects;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Reads many packed objects with few system calls: entries are sorted by (pack, offset) and neighbours
 * are merged into one positional read of up to {@code readBlockSize} bytes, as long as the gap between
 * them is at most {@code readGapLimit} (so a handful of far-apart objects never costs a whole-pack read).
 * Each block is read once and sliced in memory.
 */
final class BulkReader {

    /** Receives the stored bytes of one entry: {@code block[off, off+len)}, valid only during the call. */
    interface StoredSink {
        void accept(PackEntry entry, byte[] block, int off) throws IOException;
    }

    /** Receives an entry too large for a block; it is read on its own. */
    interface LargeSink {
        void accept(PackEntry entry) throws IOException;
    }

    private final PackFiles packs;
    private final int gapLimit;
    private final int blockSize;

    BulkReader(PackFiles packs, ContainerConfig config) {
        this.packs = packs;
        this.gapLimit = config.readGapLimit();
        this.blockSize = config.readBlockSize();
    }

    static void sortByPosition(List<PackEntry> entries) {
        entries.sort(Comparator.comparingInt(PackEntry::pack).thenComparingLong(PackEntry::offset));
    }

    /** Sorts {@code entries} in place and delivers each one's stored bytes; large ones go to {@code large}. */
    void read(List<PackEntry> entries, StoredSink sink, LargeSink large) throws IOException {
        sortByPosition(entries);
        byte[] block = new byte[Math.min(blockSize, maxBlockNeeded(entries))];
        ByteBuffer direct = ByteBuffer.allocateDirect(block.length);
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
            int len = (int) (end - start);
            direct.clear().limit(len);
            packs.readFully(first.pack(), start, direct);
            direct.flip();
            direct.get(block, 0, len);
            for (PackEntry e : group) {
                sink.accept(e, block, (int) (e.offset() - start));
            }
            i = j;
        }
    }

    private int maxBlockNeeded(List<PackEntry> entries) {
        long total = 0;
        for (PackEntry e : entries) {
            if (e.length() <= blockSize) {
                total += e.length() + gapLimit;
                if (total >= blockSize) {
                    return blockSize;
                }
            }
        }
        return (int) Math.max(total, 1);
    }
}
