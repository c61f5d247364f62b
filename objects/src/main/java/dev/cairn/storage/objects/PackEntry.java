package dev.cairn.storage.objects;

/**
 * Where a packed object lives: {@code length} stored bytes at {@code offset} of pack {@code pack},
 * which decode with {@code compression} to {@code size} bytes.
 */
record PackEntry(ObjectKey key, int pack, long offset, long length, long size, Compression compression) {

    long end() {
        return offset + length;
    }
}
