package dev.cairn.api.archives;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.EnumMap;
import java.util.Map;

import dev.cairn.api.archives.ArchiveViews.PartView;
import dev.cairn.storage.archive.ArchiveHeader;
import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.ArchiveReader;
import dev.cairn.storage.objects.ObjectKey;

/**
 * Reads an archive to its end without importing it: the reader checks every frame, count and checksum
 * (and every object's key against its bytes) as it goes, and this measures what went by.
 */
final class Inspection {

    private Inspection() {}

    /** Each part's rows (objects) and bytes, once the whole archive was read and found sound. */
    static Map<ArchivePart, PartView> readThrough(ArchiveReader reader) throws IOException {
        ArchiveHeader header = reader.header();
        Map<ArchivePart, PartView> parts = new EnumMap<>(ArchivePart.class);
        long[] objects = new long[2];
        reader.read(new ArchiveReader.Visitor() {
            @Override
            public void rows(ArchivePart part, InputStream ndjson) throws IOException {
                // the reader holds the rows to the header's count once the part ends
                parts.put(part, new PartView(header.count(part), ndjson.transferTo(OutputStream.nullOutputStream())));
            }

            @Override
            public void object(ObjectKey key, long size, InputStream content) throws IOException {
                content.transferTo(OutputStream.nullOutputStream());
                objects[0]++;
                objects[1] += size;
            }
        });
        parts.put(ArchivePart.OBJECTS, new PartView(objects[0], objects[1]));
        return parts;
    }
}
