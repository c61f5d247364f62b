package dev.cairn.api.nodes;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.UUID;

import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ObjectKey;
import dev.cairn.storage.objects.ObjectRegion;

/**
 * One file of a node, found and sized, ready to be read: its content is the object under its key,
 * which never changes.
 */
public final class NodeFile {

    private final Container objects;
    private final UUID node;
    private final String path;
    private final ObjectKey key;
    private final long size;

    NodeFile(Container objects, UUID node, String path, ObjectKey key, long size) {
        this.objects = objects;
        this.node = node;
        this.path = path;
        this.key = key;
        this.size = size;
    }

    /** The node's uuid. */
    public UUID node() {
        return node;
    }

    /** Its path among the node's files, e.g. {@code out/aiida.out}. */
    public String path() {
        return path;
    }

    /** The last part of its path. */
    public String name() {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** Its object key: the SHA-256 of its content. */
    public ObjectKey key() {
        return key;
    }

    /** Its size in bytes. */
    public long size() {
        return size;
    }

    /**
     * Where its bytes lie in a file of the object store, uncompressed, for a sendfile; empty when they
     * are compressed.
     */
    public Optional<ObjectRegion> region() throws IOException {
        return objects.region(key);
    }

    /** Its content, streamed; close it. */
    public InputStream open() throws IOException {
        return objects.open(key);
    }
}
