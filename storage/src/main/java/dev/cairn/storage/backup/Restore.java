package dev.cairn.storage.backup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import javax.sql.DataSource;

import dev.cairn.storage.db.Migrations;
import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;

/**
 * Brings a backup back into an empty installation: a database whose schema has no Cairn rows (no
 * tables, or tables at an older or equal version that are all empty) and an empty or missing object
 * store. Anything else is refused, naming what is there, before anything is changed. The object
 * store is copied (never linked: the restored store writes into its packs) into a staging folder
 * inside the store's folder, the database loaded in one transaction, and the staged entries renamed
 * into the store's folder last. The folder itself is kept, never replaced: in a container it is a
 * volume's mount point, which cannot be removed or renamed over.
 */
public final class Restore {

    /** The staging folder inside the store's folder; a leftover of a restore that was killed is removed by the next. */
    static final String STAGING = ".restoring";

    private Restore() {}

    /** The backup {@code source} names: a backup folder, or a folder of backups (its newest). */
    public static Path resolve(Path source) {
        try {
            if (Files.isRegularFile(source.resolve(Manifest.FILE))) {
                return source;
            }
            if (!Files.isDirectory(source)) {
                throw new InvalidInputException("no backup at " + source + ": no such folder");
            }
            Path latest = Backups.latest(source);
            if (latest == null) {
                throw new InvalidInputException(
                        "no backup at " + source + ": neither a backup nor a folder of backups");
            }
            return latest;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Restores; returns the manifest of the backup restored. */
    public static Manifest run(Path source, DataSource database, Path store, Consumer<String> progress) {
        Path backup = resolve(source);
        Manifest manifest = Manifest.read(backup);
        String latest = Migrations.latestVersion(database);
        if (Migrations.compareVersions(manifest.schemaVersion(), latest) > 0) {
            throw new InvalidInputException(
                    "the backup " + backup + " was made at schema version " + manifest.schemaVersion()
                            + ", newer than this server's " + latest + ": restore it with a newer server");
        }
        Path staged = store.resolve(STAGING);
        boolean existed = Files.isDirectory(store);
        boolean restored = false;
        try {
            refuseNonEmpty(database, manifest, store);
            Backups.deleteTree(staged);
            progress.accept("objects");
            copyTree(backup.resolve(Backups.OBJECTS), staged);
            progress.accept("database: schema version " + manifest.schemaVersion());
            Migrations.migrateTo(database, manifest.schemaVersion());
            try (Connection c = database.getConnection()) {
                DatabaseLoad.load(c, backup, manifest, step -> progress.accept("database: " + step));
            }
            try (Stream<Path> entries = Files.list(staged)) {
                for (Path entry : entries.toList()) {
                    Files.move(entry, store.resolve(entry.getFileName()), StandardCopyOption.ATOMIC_MOVE);
                }
            }
            restored = true;
            return manifest;
        } catch (IOException e) {
            throw new UncheckedIOException("restoring " + backup + ": " + e.getMessage(), e);
        } catch (SQLException e) {
            throw new IllegalStateException("restoring " + backup + ": " + e.getMessage(), e);
        } finally {
            try {
                Backups.deleteTree(staged);
                if (!existed && !restored) {
                    Files.deleteIfExists(store); // made here, and empty again
                }
            } catch (IOException ignored) {
                // a leftover staging folder is removed by the next restore
            }
        }
    }

    private static void refuseNonEmpty(DataSource database, Manifest manifest, Path store)
            throws SQLException, IOException {
        List<String> found = new ArrayList<>();
        String current = Migrations.currentVersion(database);
        try (Connection c = database.getConnection()) {
            List<String> tables = DatabaseDump.loadOrder(c);
            if (current == null && !tables.isEmpty()) {
                found.add("the database schema holds tables " + tables);
            } else if (current != null && Migrations.compareVersions(current, manifest.schemaVersion()) > 0) {
                found.add("the database schema is at version " + current + ", newer than the backup's "
                        + manifest.schemaVersion());
            } else {
                List<String> rows = DatabaseLoad.contents(c);
                if (!rows.isEmpty()) {
                    found.add("the database holds " + String.join(", ", rows));
                }
            }
        }
        if (Files.exists(store)) {
            try (Stream<Path> entries = Files.list(store)) {
                List<String> names = entries.map(p -> p.getFileName().toString())
                        .filter(name -> !name.equals(STAGING))
                        .sorted()
                        .toList();
                if (!names.isEmpty()) {
                    found.add("the object store " + store + " holds " + names);
                }
            }
        }
        if (!found.isEmpty()) {
            throw new ConflictException(
                    "cannot restore into an installation that is not empty: " + String.join("; ", found));
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir)));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file)), StandardCopyOption.COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
