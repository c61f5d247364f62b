package dev.cairn.storage.objects;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The pieces of one open container, shared by the classes that implement its operations.
 *
 * @param location where the container is, for messages: its folder, or {@code s3://bucket/prefix}
 * @param root     the local folder: the container itself, or the cache of a container in a bucket (its
 *                 index copy and its sandbox)
 * @param remote   the client of a container's bucket, closed last; null for a folder
 */
record ContainerParts(
        String location,
        Path root,
        ContainerConfig config,
        Sandbox sandbox,
        LooseObjects loose,
        Packs packs,
        PackIndex index,
        IndexCache cache,
        PackLock lock,
        BulkReader bulkReader,
        AutoCloseable remote) {

    /** The parts of a container in a folder. */
    static ContainerParts open(Path root, ContainerConfig config) throws IOException {
        Sandbox sandbox = new Sandbox(root);
        PackIndex index = new PackIndex(root, config.syncPacks(), null);
        PackFiles packs = new PackFiles(root);
        return new ContainerParts(
                root.toString(),
                root,
                config,
                sandbox,
                new LooseFiles(root, sandbox),
                packs,
                index,
                new IndexCache(index),
                new LockFile(root),
                new BulkReader(packs, config),
                null);
    }

    PackWriter openWriter(String operation, boolean freshPacks) throws IOException {
        return PackWriter.open(lock, operation, index, cache, packs, config, freshPacks);
    }

    private void closeRemote() throws IOException {
        try {
            remote.close();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException(e);
        }
    }

    void close() throws IOException {
        try {
            loose.close();
            packs.close();
        } finally {
            try {
                index.close();
            } finally {
                if (remote != null) {
                    closeRemote();
                }
            }
        }
    }
}
