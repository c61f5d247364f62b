package dev.cairn.storage.objects;

/**
 * Counts and sizes of a container.
 *
 * @param looseObjects     loose files (including loose copies of packed objects not yet cleaned)
 * @param looseBytes       their total size
 * @param packedObjects    objects in packs
 * @param packedBytes      their uncompressed size
 * @param packedStoredBytes the bytes they take in packs
 * @param compressedObjects packed objects stored compressed
 * @param packFiles        pack files
 * @param packFileBytes    total size of the pack files (dead bytes of deleted objects included until a repack)
 * @param indexBytes       size of the SQLite index (with its write-ahead log)
 */
public record ContainerStats(
        long looseObjects,
        long looseBytes,
        long packedObjects,
        long packedBytes,
        long packedStoredBytes,
        long compressedObjects,
        int packFiles,
        long packFileBytes,
        long indexBytes) {}
