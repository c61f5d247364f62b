package dev.cairn.storage.archive.aiida;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.storage.archive.ArchiveHeader;
import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.ArchiveReader;
import dev.cairn.storage.objects.ObjectKey;

/** Everything an archive reader delivered, held in memory: for tests of small archives only. */
record ArchiveContents(ArchiveHeader header, Map<ArchivePart, List<JsonNode>> rows, Map<String, byte[]> objects) {

    static final JsonMapper JSON = JsonMapper.builder().build();

    /** Reads {@code archive} with {@link AiidaArchiveReader}, checking each part ends every row with a newline. */
    static ArchiveContents read(Path archive) throws IOException {
        try (AiidaArchiveReader reader = AiidaArchiveReader.open(archive)) {
            return read(reader);
        }
    }

    static ArchiveContents read(ArchiveReader reader) throws IOException {
        Map<ArchivePart, List<JsonNode>> rows = new EnumMap<>(ArchivePart.class);
        Map<String, byte[]> objects = new LinkedHashMap<>();
        reader.read(new ArchiveReader.Visitor() {
            @Override
            public void rows(ArchivePart part, InputStream ndjson) throws IOException {
                String text = new String(ndjson.readAllBytes(), UTF_8);
                assertTrue(text.isEmpty() || text.endsWith("\n"), part + " ends without a newline");
                List<JsonNode> list = new ArrayList<>();
                text.lines().forEach(line -> list.add(JSON.readTree(line)));
                rows.put(part, list);
            }

            @Override
            public void object(ObjectKey key, long size, InputStream content) throws IOException {
                byte[] bytes = content.readAllBytes();
                assertEquals(size, bytes.length, "size of object " + key.hex());
                objects.put(key.hex(), bytes);
            }
        });
        assertEquals(ArchivePart.ROWS, List.copyOf(rows.keySet()), "every row part once, in order");
        return new ArchiveContents(reader.header(), rows, objects);
    }

    List<JsonNode> rows(ArchivePart part) {
        return rows.get(part);
    }

    /** The rows of {@code part} by their uuid. */
    Map<String, JsonNode> byUuid(ArchivePart part) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        rows.get(part).forEach(r -> out.put(r.get("uuid").asString(), r));
        return out;
    }

    JsonNode node(String uuid) {
        return byUuid(ArchivePart.NODES).get(uuid);
    }
}
