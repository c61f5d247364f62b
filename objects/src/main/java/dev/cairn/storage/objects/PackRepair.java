package dev.cairn.storage.objects;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * Undoes what an interrupted packer left: bytes appended past a pack's committed end, and pack files
 * the index never committed. Runs under the pack lock, before anything is appended.
 */
final class PackRepair {

    private PackRepair() {}

    /** Truncates bytes past the committed mark and deletes pack files the index does not know. */
    static void repairLeftovers(PackFiles packs, Map<Integer, Long> committed, Map<Integer, Long> onDisk)
            throws IOException {
        for (Map.Entry<Integer, Long> f : onDisk.entrySet()) {
            Long size = committed.get(f.getKey());
            if (size == null) {
                packs.forget(f.getKey());
                Files.deleteIfExists(packs.path(f.getKey()));
            } else if (f.getValue() > size) {
                try (FileChannel c = FileChannel.open(packs.path(f.getKey()), StandardOpenOption.WRITE)) {
                    c.truncate(size);
                    c.force(false);
                }
            }
        }
    }
}
