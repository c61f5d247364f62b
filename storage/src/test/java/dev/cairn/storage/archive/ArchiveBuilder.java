package dev.cairn.storage.archive;

import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.cairn.storage.objects.ObjectKey;

/**
 * Writes archives of given rows, good or bad, in Cairn's format: what an importer must refuse is
 * written here as another installation (or an attacker) could.
 */
final class ArchiveBuilder {

    static final String USER = "maker@example.com";

    private final Map<ArchivePart, List<String>> rows = new EnumMap<>(ArchivePart.class);
    private final List<byte[]> objects = new ArrayList<>();
    private final List<ObjectKey> claimedKeys = new ArrayList<>();

    ArchiveBuilder() {
        row(ArchivePart.USERS, "{\"email\": \"" + USER + "\", \"first_name\": \"Ada\"}");
    }

    ArchiveBuilder row(ArchivePart part, String json) {
        rows.computeIfAbsent(part, p -> new ArrayList<>()).add(json);
        return this;
    }

    /** An object stored under its true key. */
    ArchiveBuilder object(byte[] content) {
        return object(content, key(content));
    }

    /** An object stored under {@code key}, true or not. */
    ArchiveBuilder object(byte[] content, ObjectKey key) {
        objects.add(content);
        claimedKeys.add(key);
        return this;
    }

    ArchiveBuilder node(UUID uuid, String nodeType, String attributes, String files) {
        return node(uuid, nodeType, attributes, files, "{}");
    }

    ArchiveBuilder node(UUID uuid, String nodeType, String attributes, String files, String extras) {
        return row(
                ArchivePart.NODES,
                "{\"uuid\": \"" + uuid + "\", \"node_type\": \"" + nodeType + "\","
                        + " \"process_type\": " + (nodeType.startsWith("process.") ? "\"test.f\"" : "null") + ","
                        + " \"ctime\": \"2026-11-24T10:00:00+00:00\", \"mtime\": \"2026-11-24T10:00:00+00:00\","
                        + " \"user\": \"" + USER + "\", \"computer\": null, \"attributes\": " + attributes + ","
                        + " \"extras\": " + extras + ", \"repository_metadata\": " + files + "}");
    }

    ArchiveBuilder data(UUID uuid) {
        return node(uuid, "data.core.int.Int.", "{\"value\": 1}", "{}");
    }

    ArchiveBuilder calc(UUID uuid) {
        return node(
                uuid,
                "process.calculation.calcfunction.CalcFunctionNode.",
                "{\"sealed\": true, \"process_state\": \"finished\", \"exit_status\": 0}",
                "{}");
    }

    ArchiveBuilder link(UUID input, UUID output, String type, String label) {
        return row(
                ArchivePart.LINKS,
                "{\"input\": \"" + input + "\", \"output\": \"" + output + "\", \"type\": \"" + type
                        + "\", \"label\": \"" + label + "\"}");
    }

    Path write(Path file) throws Exception {
        Map<ArchivePart, Long> counts = new EnumMap<>(ArchivePart.class);
        rows.forEach((p, r) -> counts.put(p, (long) r.size()));
        counts.put(ArchivePart.OBJECTS, (long) objects.size());
        try (CairnArchiveWriter w = CairnArchiveWriter.toFile(file)) {
            w.begin(new ArchiveHeader("cairn-archive", "1", "test", Instant.now(), Map.of(), counts));
            for (ArchivePart part : ArchivePart.ROWS) {
                try (OutputStream out = w.rows(part)) {
                    for (String r : rows.getOrDefault(part, List.of())) {
                        out.write((r + "\n").getBytes(StandardCharsets.UTF_8));
                    }
                }
            }
            for (int i = 0; i < objects.size(); i++) {
                w.object(claimedKeys.get(i), objects.get(i).length, new ByteArrayInputStream(objects.get(i)));
            }
            w.finish();
        }
        return file;
    }

    static ObjectKey key(byte[] content) {
        try {
            return ObjectKey.ofDigest(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
