package dev.cairn.storage.backup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Pattern;
import javax.sql.DataSource;

import dev.cairn.storage.errors.ConflictException;
import dev.cairn.storage.errors.InvalidInputException;
import dev.cairn.storage.objects.Container;
import dev.cairn.storage.objects.ContainerLockedException;
import dev.cairn.storage.objects.CopyReport;

/**
 * The backups in one folder: each a timestamped folder ({@code backup-20261124T194500.123Z}) holding
 * {@code manifest.json}, {@code db/} and {@code objects/}, plus a {@code last} symlink to the newest.
 * A backup is written under a {@code .partial-} name and renamed when complete, so a crash leaves
 * nothing that looks like a backup (the next backup removes such leftovers).
 */
public final class Backups {

    public static final String LAST = "last";
    static final String OBJECTS = "objects";
    private static final String PARTIAL = ".partial-";
    private static final Pattern NAME = Pattern.compile("backup-\\d{8}T\\d{9}Z");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmssSSS'Z'");

    /**
     * What a backup made.
     *
     * @param path       the backup's folder
     * @param manifest   its tables and schema version
     * @param objects    how the object store was copied
     * @param pruned     older backups deleted by {@code keep}
     */
    public record Result(Path path, Manifest manifest, CopyReport objects, List<String> pruned) {}

    private Backups() {}

    /**
     * Backs up the database and the object store into a new folder of {@code dest}; keeps the newest
     * {@code keep} backups (0: all). {@code progress} hears each step.
     */
    public static Result create(Path dest, int keep, DataSource database, Container store, Consumer<String> progress) {
        if (!dest.isAbsolute()) {
            throw new InvalidInputException("the backup destination must be an absolute path on the server: " + dest);
        }
        if (keep < 0) {
            throw new InvalidInputException("keep must be 0 (all) or more: " + keep);
        }
        if (Files.exists(dest) && !Files.isDirectory(dest)) {
            throw new InvalidInputException("the backup destination " + dest + " exists and is not a folder");
        }
        try {
            Files.createDirectories(dest);
            removeLeftovers(dest);
            Path previous = latest(dest);
            String name = "backup-" + STAMP.format(ZonedDateTime.now(ZoneOffset.UTC));
            Path partial = dest.resolve(PARTIAL + name);
            Files.createDirectory(partial);
            try {
                Manifest manifest;
                // the database first: every object a committed row refers to was written before it committed
                try (Connection c = database.getConnection()) {
                    manifest = DatabaseDump.dump(c, partial, step -> progress.accept("database: " + step));
                }
                CopyReport objects = copyStore(store, partial.resolve(OBJECTS), previous, progress);
                manifest.write(partial);
                Path done = dest.resolve(name);
                Files.move(partial, done, StandardCopyOption.ATOMIC_MOVE);
                Path link = dest.resolve(".last-" + name);
                Files.createSymbolicLink(link, done.getFileName());
                Files.move(
                        link, dest.resolve(LAST), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                List<String> pruned = prune(dest, keep);
                progress.accept("done: " + done);
                return new Result(done, manifest, objects, pruned);
            } catch (IOException | SQLException | RuntimeException e) {
                deleteTree(partial);
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("backing up to " + dest + ": " + e.getMessage(), e);
        } catch (SQLException e) {
            throw new IllegalStateException("backing up the database to " + dest + ": " + e.getMessage(), e);
        }
    }

    private static CopyReport copyStore(Container store, Path target, Path previous, Consumer<String> progress)
            throws IOException {
        Path previousObjects = previous == null ? null : previous.resolve(OBJECTS);
        // a packer holds the lock for seconds at most: wait for it rather than fail the backup
        for (int attempt = 1; ; attempt++) {
            try {
                return store.copyTo(target, previousObjects, step -> progress.accept("objects: " + step));
            } catch (ContainerLockedException e) {
                if (attempt == 60) {
                    throw new ConflictException("the object store stayed locked for a minute: " + e.getMessage(), e);
                }
                deleteTree(target);
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for the pack lock", interrupted);
                }
            }
        }
    }

    /** Whether a folder of backups may hold an entry of this name: a backup, its leftovers, or {@code last}. */
    public static boolean isBackupEntry(String name) {
        return name.equals(LAST)
                || NAME.matcher(name).matches()
                || name.startsWith(PARTIAL + "backup-")
                || name.startsWith(".last-backup-");
    }

    /** The newest complete backup in {@code dest}, or null. */
    public static Path latest(Path dest) throws IOException {
        List<Path> all = list(dest);
        return all.isEmpty() ? null : all.getLast();
    }

    /** The complete backups in {@code dest}, oldest first. */
    public static List<Path> list(Path dest) throws IOException {
        List<Path> found = new ArrayList<>();
        if (!Files.isDirectory(dest)) {
            return found;
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dest)) {
            for (Path p : entries) {
                if (NAME.matcher(p.getFileName().toString()).matches()
                        && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)
                        && Files.isRegularFile(p.resolve(Manifest.FILE))) {
                    found.add(p);
                }
            }
        }
        found.sort(null);
        return found;
    }

    private static List<String> prune(Path dest, int keep) throws IOException {
        List<String> pruned = new ArrayList<>();
        if (keep == 0) {
            return pruned;
        }
        List<Path> all = list(dest);
        for (Path old : all.subList(0, Math.max(0, all.size() - keep))) {
            deleteTree(old);
            pruned.add(old.getFileName().toString());
        }
        return pruned;
    }

    private static void removeLeftovers(Path dest) throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dest, PARTIAL + "backup-*")) {
            for (Path p : entries) {
                deleteTree(p);
            }
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                if (e != null) {
                    throw e;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
