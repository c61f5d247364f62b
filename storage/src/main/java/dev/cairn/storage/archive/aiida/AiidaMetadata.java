package dev.cairn.storage.archive.aiida;

import java.time.Instant;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

import dev.cairn.storage.archive.ArchiveHeader;
import dev.cairn.storage.archive.ArchivePart;
import dev.cairn.storage.archive.InvalidArchiveException;

/**
 * An AiiDA archive's {@code metadata.json}: the format's version (only {@code main_0001}, what every
 * aiida-core 2.x writes, is read), the object key format, what wrote it and when, and how it was
 * created. AiiDA writes {@code ctime} as the exporting machine's naive local time; with no zone to go
 * by, it is read as UTC.
 */
record AiidaMetadata(String aiidaVersion, Instant created, Map<String, Object> parameters) {

    static final String VERSION = "main_0001";
    static final String KEY_FORMAT = "sha256";

    /** Parses and checks the bytes of {@code metadata.json} of {@code file}. */
    static AiidaMetadata parse(byte[] json, String file) {
        String where = file + ", metadata.json";
        JsonNode root;
        try {
            root = AiidaJson.MAPPER.readTree(json);
        } catch (JacksonException e) {
            throw new InvalidArchiveException(where + " is not valid JSON: " + e.getOriginalMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new InvalidArchiveException(where + " is not a JSON object");
        }
        JsonNode version = root.get("export_version");
        if (version == null || !version.isString()) {
            throw new InvalidArchiveException(where + " has no export_version: not an AiiDA archive");
        }
        if (!version.asString().equals(VERSION)) {
            throw new InvalidArchiveException(where + ": export_version is '" + version.asString() + "', but only '"
                    + VERSION + "' (what aiida-core 2.x writes) is supported; convert older archives with aiida-core's"
                    + " `verdi archive migrate`");
        }
        JsonNode keyFormat = root.get("key_format");
        if (keyFormat != null && !KEY_FORMAT.equals(keyFormat.asString())) {
            throw new InvalidArchiveException(
                    where + ": key_format is " + keyFormat + ", but only '" + KEY_FORMAT + "' is supported");
        }
        JsonNode ctime = root.get("ctime");
        Instant created = ctime == null || !ctime.isString() ? null : NaiveUtc.parse(ctime.asString());
        if (created == null) {
            throw new InvalidArchiveException(where + ": ctime " + ctime + " is no ISO 8601 time");
        }
        JsonNode aiida = root.get("aiida_version");
        return new AiidaMetadata(
                aiida == null ? "unknown" : aiida.asString(),
                created,
                CreationParameters.toCairn(root.get("creation_parameters")));
    }

    ArchiveHeader header(Map<ArchivePart, Long> counts) {
        return new ArchiveHeader("aiida", VERSION, "aiida-core " + aiidaVersion, created, parameters, counts);
    }
}
