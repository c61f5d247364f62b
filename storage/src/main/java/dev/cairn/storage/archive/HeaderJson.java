package dev.cairn.storage.archive;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.cairn.storage.db.JsonCodec;
import dev.cairn.storage.errors.InvalidInputException;

/** The header and trailer frames of Cairn's format as JSON, and the checks a reader makes of them. */
final class HeaderJson {

    static final String FORMAT = "cairn-archive";

    private HeaderJson() {}

    static byte[] write(ArchiveHeader header) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("format", FORMAT);
        json.put("version", Frames.VERSION);
        json.put("producer", header.producer());
        json.put("created", header.created().toString());
        json.put("parameters", header.parameters());
        json.put("counts", counts(header.counts()));
        return JsonCodec.write(json).getBytes(StandardCharsets.UTF_8);
    }

    static Map<String, Object> counts(Map<ArchivePart, Long> counts) {
        Map<String, Object> byKey = new LinkedHashMap<>();
        for (ArchivePart p : ArchivePart.values()) {
            byKey.put(p.key(), counts.getOrDefault(p, 0L));
        }
        return byKey;
    }

    @SuppressWarnings("unchecked")
    static ArchiveHeader read(byte[] payload) {
        Map<String, Object> json = object(payload, "the header");
        if (!FORMAT.equals(json.get("format"))) {
            throw new InvalidArchiveException(
                    "the archive's header names format '" + json.get("format") + "', not '" + FORMAT + "'");
        }
        if (!(json.get("version") instanceof Long v) || v != Frames.VERSION) {
            throw new InvalidArchiveException("the archive's header names version " + json.get("version")
                    + ", and this Cairn reads version " + Frames.VERSION + " only");
        }
        Instant created;
        try {
            created = Instant.parse(String.valueOf(json.get("created")));
        } catch (DateTimeParseException e) {
            throw new InvalidArchiveException(
                    "the archive's header has no valid 'created' time: " + json.get("created"));
        }
        Object parameters = json.getOrDefault("parameters", Map.of());
        if (!(parameters instanceof Map<?, ?>)) {
            throw new InvalidArchiveException("the archive's header has 'parameters' that are not a JSON object");
        }
        return new ArchiveHeader(
                FORMAT,
                String.valueOf(Frames.VERSION),
                String.valueOf(json.getOrDefault("producer", "")),
                created,
                (Map<String, Object>) parameters,
                readCounts(json.get("counts"), "the header"));
    }

    /** The counts of a header or trailer: a count for every part, none negative. */
    static Map<ArchivePart, Long> readCounts(Object value, String where) {
        if (!(value instanceof Map<?, ?> map)) {
            throw new InvalidArchiveException("the archive's " + where + " has no 'counts' object");
        }
        Map<ArchivePart, Long> counts = new EnumMap<>(ArchivePart.class);
        for (ArchivePart p : ArchivePart.values()) {
            if (!(map.get(p.key()) instanceof Long n) || n < 0) {
                throw new InvalidArchiveException("the archive's " + where + " has no valid count of " + p.key()
                        + " (found " + map.get(p.key()) + ")");
            }
            counts.put(p, n);
        }
        return counts;
    }

    static Map<String, Object> object(byte[] payload, String where) {
        try {
            return JsonCodec.readObject(new String(payload, StandardCharsets.UTF_8));
        } catch (InvalidInputException e) {
            throw new InvalidArchiveException("corrupt archive: " + where + " is not a JSON object", e);
        }
    }
}
