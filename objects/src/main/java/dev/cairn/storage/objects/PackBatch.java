package dev.cairn.storage.objects;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * A bulk write straight to packs (imports, large batches): objects added here become visible together at
 * {@link #commit}, or not at all if the batch is closed without one (or its process dies). Holds the
 * container's pack lock until closed. Not thread-safe.
 */
public final class PackBatch implements AutoCloseable {

    private final PackWriter writer;
    private final Compression compression;

    PackBatch(PackWriter writer, Compression compression) {
        this.writer = writer;
        this.compression = compression;
    }

    /** Adds an object held in memory; content already in the container (or this batch) is not stored again. */
    public ObjectKey add(byte[] content) throws IOException {
        return writer.add(content, compression);
    }

    /** Adds many objects held in memory (hashed and compressed in parallel); returns their keys in order. */
    public List<ObjectKey> addAll(List<byte[]> contents) throws IOException {
        return writer.addAll(contents, compression);
    }

    /** Streams an object of any size into the pack, in bounded memory. */
    public ObjectKey add(InputStream content) throws IOException {
        return writer.add(content, compression);
    }

    /** Syncs the packs (unless the container's config says not to) and commits the index; returns how many
     * new objects were stored. */
    public int commit() throws IOException {
        return writer.commit().size();
    }

    /** Releases the lock; without a commit, every byte this batch appended is taken back. */
    @Override
    public void close() throws IOException {
        writer.close();
    }
}
