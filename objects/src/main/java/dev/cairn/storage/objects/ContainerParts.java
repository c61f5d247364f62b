package dev.cairn.storage.objects;

import java.io.IOException;
import java.nio.file.Path;

/** The pieces of one open container, shared by the classes that implement its operations. */
record ContainerParts(
        Path root,
        ContainerConfig config,
        Sandbox sandbox,
        LooseObjects loose,
        PackFiles packs,
        PackIndex index,
        IndexCache cache,
        PackLock lock,
        BulkReader bulkReader) {

    static ContainerParts open(Path root, ContainerConfig config) throws IOException {
        Sandbox sandbox = new Sandbox(root);
        PackIndex index = new PackIndex(root, config.syncPacks());
        PackFiles packs = new PackFiles(root);
        return new ContainerParts(
                root,
                config,
                sandbox,
                new LooseObjects(root, sandbox),
                packs,
                index,
                new IndexCache(index),
                new PackLock(root),
                new BulkReader(packs, config));
    }

    PackWriter openWriter(String operation, boolean freshPacks) throws IOException {
        return PackWriter.open(lock, operation, index, cache, packs, config, freshPacks);
    }

    void close() throws IOException {
        try {
            loose.close();
            packs.close();
        } finally {
            index.close();
        }
    }
}
