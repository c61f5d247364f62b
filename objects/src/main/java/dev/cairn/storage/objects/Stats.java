package dev.cairn.storage.objects;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Counts and sizes of a container, from the index cache and the file system. */
final class Stats {

    private final ContainerParts parts;
    private long looseCount;
    private long looseBytes;
    private long packedCount;
    private long packedBytes;
    private long storedBytes;
    private long compressed;

    Stats(ContainerParts parts) {
        this.parts = parts;
    }

    ContainerStats collect() throws IOException {
        parts.cache().forEach(e -> {
            packedCount++;
            packedBytes += e.size();
            storedBytes += e.length();
            compressed += e.compression() == Compression.NONE ? 0 : 1;
        });
        parts.loose()
                .forEach(
                        k -> {
                            looseCount++;
                            try {
                                looseBytes += Math.max(0, parts.loose().size(k));
                            } catch (IOException e) {
                                // removed while we counted
                            }
                        },
                        bad -> {});
        Map<Integer, Long> packFiles = parts.packs().stored();
        long packFileBytes =
                packFiles.values().stream().mapToLong(Long::longValue).sum();
        // (in a bucket: the size of this host's copy of the index)
        long indexBytes =
                size(parts.root().resolve(PackIndex.FILE)) + size(parts.root().resolve(PackIndex.FILE + "-wal"));
        return new ContainerStats(
                looseCount,
                looseBytes,
                packedCount,
                packedBytes,
                storedBytes,
                compressed,
                packFiles.size(),
                packFileBytes,
                indexBytes);
    }

    private static long size(Path p) throws IOException {
        return Files.exists(p) ? Files.size(p) : 0;
    }
}
