package dev.cairn.storage.archive.aiida;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Damaged copies of a real archive, for the tests of what the reader refuses: entries replaced, dropped or
 * added, the database changed by SQL, bytes overwritten. The copies are written by {@link ZipWriter}, the
 * same code that writes good archives, so only the damage asked for differs.
 */
final class ArchiveSurgery {

    private final Path source;
    private final Path work;
    private final Map<String, byte[]> replaced = new LinkedHashMap<>();
    private final List<String> dropped = new ArrayList<>();
    private final Map<String, byte[]> added = new LinkedHashMap<>();
    private final List<String> sql = new ArrayList<>();

    private ArchiveSurgery(Path source, Path work) {
        this.source = source;
        this.work = work;
    }

    /** A copy of {@code source} to be damaged, made in {@code work}. */
    static ArchiveSurgery of(Path source, Path work) {
        return new ArchiveSurgery(source, work);
    }

    ArchiveSurgery replace(String entry, byte[] content) {
        replaced.put(entry, content);
        return this;
    }

    ArchiveSurgery drop(String entry) {
        dropped.add(entry);
        return this;
    }

    /** Adds an entry after the others (a name may be added twice, as a hostile zip can). */
    ArchiveSurgery add(String entry, byte[] content) {
        added.put(entry + "\0" + added.size(), content);
        return this;
    }

    /** Runs {@code statements} on the archive's database before it goes back into the copy. */
    ArchiveSurgery sql(String... statements) {
        Collections.addAll(sql, statements);
        return this;
    }

    /** Writes the copy to {@code name} in the work folder. */
    Path write(String name) throws IOException, SQLException {
        Path target = work.resolve(name);
        Path scratch = Files.createTempDirectory(work, "surgery-");
        try (ZipFile zip = new ZipFile(source.toFile());
                ZipWriter out = new ZipWriter(target, scratch.resolve("central"), LocalDateTime.now())) {
            List<? extends ZipEntry> entries = zip.stream().toList();
            for (ZipEntry e : entries) {
                if (dropped.contains(e.getName())) {
                    continue;
                }
                byte[] content = replaced.containsKey(e.getName()) ? replaced.get(e.getName()) : read(zip, e);
                if (e.getName().equals(EntryNames.DATABASE) && !sql.isEmpty()) {
                    content = changed(content, scratch);
                }
                out.write(e.getName(), new ByteArrayInputStream(content), content.length, 6, true);
            }
            for (Map.Entry<String, byte[]> e : added.entrySet()) {
                String entry = e.getKey().substring(0, e.getKey().indexOf('\0'));
                out.write(entry, new ByteArrayInputStream(e.getValue()), e.getValue().length, 6, true);
            }
            out.finish();
        } finally {
            Scratch.delete(scratch);
        }
        return target;
    }

    private byte[] changed(byte[] database, Path scratch) throws IOException, SQLException {
        Path db = scratch.resolve("db.sqlite3");
        Files.write(db, database);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
                Statement s = c.createStatement()) {
            for (String statement : sql) {
                s.execute(statement);
            }
        }
        return Files.readAllBytes(db);
    }

    private static byte[] read(ZipFile zip, ZipEntry e) throws IOException {
        try (InputStream in = zip.getInputStream(e)) {
            return in.readAllBytes();
        }
    }
}
