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
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.S3Location;

/**
 * Brings a backup back into an empty installation: a database whose schema has no Cairn rows (no
 * tables, or tables at an older or equal version that are all empty) and an empty or missing object
 * store. Anything else is refused, naming what is there, before anything is changed. The object
 * store is copied (never linked: the restored store writes into its packs) into a staging folder
 * inside the store's folder, the database loaded in one transaction, and the staged entries renamed
 * into the store's folder last. The folder itself is kept, never replaced: in a container it is a
 * volume's mount point, which cannot be removed or renamed over. A store in a bucket gets the backup's
 * objects written into it ({@link ObjectsIntoBucket}).
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

    /** Restores into a store in a folder; returns the manifest of the backup restored. */
    public static Manifest run(Path source, DataSource database, Path store, Consumer<String> progress) {
        Path backup = resolve(source);
        Manifest manifest = readChecked(backup, database);
        Path staged = store.resolve(STAGING);
        boolean existed = Files.isDirectory(store);
        boolean restored = false;
        try {
            List<String> found = databaseContents(database, manifest);
            found.addAll(storeContents(store));
            refuseIfAny(found);
            Backups.deleteTree(staged);
            progress.accept("objects");
            copyTree(backup.resolve(Backups.OBJECTS), staged);
            loadDatabase(backup, manifest, database, progress);
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

    /**
     * Restores into a store in a bucket, which holds no objects yet (no container under its prefix, or an
     * empty one, as a server's first start leaves it). The backup's container is copied into a staging folder
     * in the bucket's local cache (the backup itself is never opened: opening writes to its index), its objects
     * written into the bucket in one pack batch, and the database loaded after them. If the load fails, the
     * objects are deleted from the bucket again, so that the restore can be run again.
     */
    public static Manifest run(Path source, DataSource database, S3Location bucket, Consumer<String> progress) {
        Path backup = resolve(source);
        Manifest manifest = readChecked(backup, database);
        Path staged = bucket.cacheDir().resolve(STAGING);
        try {
            List<String> found = databaseContents(database, manifest);
            long held = ObjectsIntoBucket.objectsIn(bucket);
            if (held > 0) {
                found.add("the object store " + bucket + " holds " + held + " objects");
            }
            refuseIfAny(found);
            Backups.deleteTree(staged);
            progress.accept("objects");
            copyTree(backup.resolve(Backups.OBJECTS), staged);
            try (Container target = ObjectsIntoBucket.open(bucket)) {
                ObjectsIntoBucket.copy(staged, target, progress);
                try {
                    loadDatabase(backup, manifest, database, progress);
                } catch (SQLException | IOException | RuntimeException e) {
                    try {
                        ObjectsIntoBucket.deleteAll(target);
                    } catch (IOException | RuntimeException cleanup) {
                        e.addSuppressed(cleanup); // the load's failure is the one to report
                    }
                    throw e;
                }
            }
            return manifest;
        } catch (IOException e) {
            throw new UncheckedIOException("restoring " + backup + " into " + bucket + ": " + e.getMessage(), e);
        } catch (SQLException e) {
            throw new IllegalStateException("restoring " + backup + ": " + e.getMessage(), e);
        } finally {
            try {
                Backups.deleteTree(staged);
            } catch (IOException ignored) {
                // a leftover staging folder is removed by the next restore
            }
        }
    }

    /** The backup's manifest, refused when a newer schema than this server's made it. */
    private static Manifest readChecked(Path backup, DataSource database) {
        Manifest manifest = Manifest.read(backup);
        String latest = Migrations.latestVersion(database);
        if (Migrations.compareVersions(manifest.schemaVersion(), latest) > 0) {
            throw new InvalidInputException(
                    "the backup " + backup + " was made at schema version " + manifest.schemaVersion()
                            + ", newer than this server's " + latest + ": restore it with a newer server");
        }
        return manifest;
    }

    private static void loadDatabase(Path backup, Manifest manifest, DataSource database, Consumer<String> progress)
            throws SQLException, IOException {
        progress.accept("database: schema version " + manifest.schemaVersion());
        Migrations.migrateTo(database, manifest.schemaVersion());
        try (Connection c = database.getConnection()) {
            DatabaseLoad.load(c, backup, manifest, step -> progress.accept("database: " + step));
        }
    }

    /** What the database holds that a restore would overwrite; empty when it may be restored into. */
    private static List<String> databaseContents(DataSource database, Manifest manifest) throws SQLException {
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
        return found;
    }

    private static List<String> storeContents(Path store) throws IOException {
        if (!Files.exists(store)) {
            return List.of();
        }
        try (Stream<Path> entries = Files.list(store)) {
            List<String> names = entries.map(p -> p.getFileName().toString())
                    .filter(name -> !name.equals(STAGING))
                    .sorted()
                    .toList();
            return names.isEmpty() ? List.of() : List.of("the object store " + store + " holds " + names);
        }
    }

    private static void refuseIfAny(List<String> found) {
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
