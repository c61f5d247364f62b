package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;

import dev.cairn.storage.archive.ArchiveHeader;
import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.ArchiveReader;
import dev.cairn.storage.archive.ArchiveWriter;
import dev.cairn.storage.objects.ObjectKey;

/** Archives written from what a reader delivers, or from rows in memory: the tests' exporters. */
final class ArchiveCopy {

    private ArchiveCopy() {}

    /** Everything {@code reader} delivers, written by {@code writer} and finished. */
    static void copy(ArchiveReader reader, ArchiveWriter writer) throws IOException {
        writer.begin(reader.header());
        reader.read(new ArchiveReader.Visitor() {
            @Override
            public void rows(ArchivePart part, InputStream ndjson) throws IOException {
                try (OutputStream out = writer.rows(part)) {
                    ndjson.transferTo(out);
                }
            }

            @Override
            public void object(ObjectKey key, long size, InputStream content) throws IOException {
                writer.object(key, size, content);
            }
        });
        writer.finish();
    }

    /** {@code rows} (missing parts are empty) and {@code objects} written by {@code writer} and finished. */
    static void write(ArchiveWriter writer, Map<ArchivePart, List<JsonNode>> rows, Map<String, byte[]> objects)
            throws IOException {
        Map<ArchivePart, Long> counts = new EnumMap<>(ArchivePart.class);
        rows.forEach((part, list) -> counts.put(part, (long) list.size()));
        counts.put(ArchivePart.OBJECTS, (long) objects.size());
        writer.begin(new ArchiveHeader("cairn", "1", "cairn-test", Instant.now(), Map.of(), counts));
        for (ArchivePart part : ArchivePart.ROWS) {
            try (OutputStream out = writer.rows(part)) {
                for (JsonNode row : rows.getOrDefault(part, List.of())) {
                    out.write((row + "\n").getBytes(UTF_8));
                }
            }
        }
        for (Map.Entry<String, byte[]> o : objects.entrySet()) {
            writer.object(ObjectKey.of(o.getKey()), o.getValue().length, new ByteArrayInputStream(o.getValue()));
        }
        writer.finish();
    }
}
