package dev.cairn.storage.backup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

import dev.cairn.storage.errors.InvalidInputException;

/**
 * What a backup holds, {@code manifest.json}: written last, so a folder without it is no backup.
 *
 * @param format        this layout's version
 * @param schemaVersion the database schema version (Flyway) the tables were dumped at
 * @param created       when the database snapshot was taken (ISO-8601)
 * @param tables        the tables in load order (referenced tables before those that refer to them)
 * @param sequences     each sequence's last value, null when never used
 */
public record Manifest(int format, String schemaVersion, String created, List<Table> tables, List<Sequence> sequences) {

    public static final String FILE = "manifest.json";
    private static final JsonMapper JSON =
            JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    static final int FORMAT = 1;

    /** One table's dump: {@code db/<name>.copy} in COPY's text format. */
    public record Table(String name, List<String> columns, long rows) {}

    public record Sequence(String name, Long lastValue) {}

    void write(Path folder) throws IOException {
        Files.writeString(folder.resolve(FILE), JSON.writeValueAsString(this));
    }

    static Manifest read(Path backup) {
        Path file = backup.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            throw new InvalidInputException(backup + " is not a backup: it has no " + FILE);
        }
        try {
            Manifest m = JSON.readValue(Files.readString(file), Manifest.class);
            if (m.format() != FORMAT) {
                throw new InvalidInputException(
                        backup + " is a backup of format " + m.format() + "; this server reads format " + FORMAT);
            }
            return m;
        } catch (IOException | JacksonException e) {
            throw new InvalidInputException(file + " cannot be read: " + e.getMessage(), e);
        }
    }

    /** The rows of every table together. */
    public long rows() {
        return tables.stream().mapToLong(Table::rows).sum();
    }
}
