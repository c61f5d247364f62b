package dev.cairn.storage.objects;

/**
 * What the store knows of one object without reading it.
 *
 * @param size        the uncompressed size in bytes
 * @param packed      true when it lies in a pack (it may also still have a loose copy)
 * @param compression how it is stored in its pack ({@link Compression#NONE} for loose objects)
 * @param pack        the pack id, or -1 for a loose object
 * @param offset      where its stored bytes start in the pack, or -1
 * @param length      how many bytes it takes in the pack, or the file size for a loose object
 */
public record ObjectMeta(
        ObjectKey key, long size, boolean packed, Compression compression, int pack, long offset, long length) {

    static ObjectMeta packed(PackEntry e) {
        return new ObjectMeta(e.key(), e.size(), true, e.compression(), e.pack(), e.offset(), e.length());
    }

    static ObjectMeta loose(ObjectKey key, long size) {
        return new ObjectMeta(key, size, false, Compression.NONE, -1, -1, size);
    }

    public boolean compressed() {
        return compression != Compression.NONE;
    }
}
